import { defaultIdentityGraceSeconds, identitySecretPrefix, maxIdentityGraceSeconds } from '#tenancy/operator-identity.js';
import { nullable, objectOf, timestamp, uuid } from './common.js';

export const operatorIdentityResponse = objectOf({
  operatorId: uuid,
  required: {
    type: 'boolean',
    description: 'Visitors without a valid identity token are refused (403 `identity_required`).',
  },
  hasSecret: { type: 'boolean' },
  secretCreatedAt: nullable({ ...timestamp, description: 'When the current secret was created; null before any.' }),
  previousSecretExpiresAt: nullable({
    ...timestamp,
    description: 'Until when the secret before the last rotation still verifies; null when none does.',
  }),
});

export const rotateIdentitySecretRequest = objectOf(
  {
    graceSeconds: {
      type: 'integer',
      minimum: 0,
      maximum: maxIdentityGraceSeconds,
      description: `How long the secret being replaced keeps verifying (default ${defaultIdentityGraceSeconds} s, 24 hours; 0 stops it at once).`,
    },
  },
  ['graceSeconds'],
);

export const identitySecretResponse = objectOf({
  ...operatorIdentityResponse.properties,
  secret: {
    type: 'string',
    pattern: `^${identitySecretPrefix}`,
    description: "The new identity secret, shown only here: keep it on the site's server, never in a page.",
  },
});

export const updateOperatorIdentityRequest = objectOf({
  required: {
    type: 'boolean',
    description: 'true refuses visitors without a valid identity token; the operator must have a secret first (409 otherwise).',
  },
});
