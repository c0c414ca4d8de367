import { name, objectOf, secret, uuid } from './common.js';
import { textPatterns } from './text-patterns.js';

const platformId = (description: string) =>
  ({
    type: 'string',
    pattern: textPatterns.platformId.pattern,
    minLength: 1,
    maxLength: 64,
    description,
    examples: ['109283746501928'],
  }) as const;

const publicData = {
  businessAccountId: platformId('Business account (WABA) id, as the platform shows it (digits)'),
  phoneNumberId: platformId('Id of the sending number (digits); one connection per number'),
  phoneNumber: {
    type: 'string',
    pattern: textPatterns.phoneNumber.pattern,
    description: 'E.164: `+`, country code, digits; no spaces, dashes or parentheses',
    examples: ['+4915123456789'],
  },
  apiVersion: {
    type: 'string',
    pattern: textPatterns.graphApiVersion.pattern,
    maxLength: 16,
    description: 'Graph API version, `v<major>.<minor>`',
    examples: ['v23.0'],
  },
} as const;

const developmentMode = {
  type: 'boolean',
  description:
    'Accept deliveries without a valid signature, for a local stand-in of the platform. Refused in production; never use it on a real number.',
} as const;

export const createCredentialRequest = objectOf(
  {
    type: { enum: ['messaging_api'] },
    name,
    data: objectOf(
      {
        accessToken: secret(4096, 'Permanent system-user token of the platform; stored encrypted, never shown again'),
        ...publicData,
        appSecret: secret(256, "The Meta app's secret, which signs every delivery; stored encrypted, never shown again"),
        developmentMode: { ...developmentMode, default: false },
      },
      ['appSecret', 'developmentMode'],
    ),
    operatorId: { ...uuid, description: "The AI operator that answers on this number; default the tenant's first" },
  },
  ['operatorId'],
);

export const credentialResponse = objectOf({
  id: { ...uuid, description: 'The credential' },
  type: { enum: ['messaging_api'] },
  name,
  connectionId: { ...uuid, description: 'The app connection made from it: ask its webhook-info next' },
  operatorId: uuid,
  data: objectOf({
    ...publicData,
    hasAppSecret: { type: 'boolean', description: 'Without an app secret, deliveries cannot be verified and are refused' },
    developmentMode,
  }),
});

export const webhookInfoResponse = objectOf({
  webhookUrl: {
    type: 'string',
    format: 'uri',
    description: 'The callback URL to enter in the app dashboard: `{base_url}/webhooks/messaging_api/{webhookPath}`',
  },
  webhookPath: { type: 'string', pattern: '^[A-Za-z0-9_-]+$', description: 'Random, 192 bits; derived from nothing' },
  verifyToken: { type: 'string', description: 'The verify token to enter beside the callback URL' },
});
