/**
 * The business's approved message templates, per connection. The platform approves templates
 * outside the service (in the business's WhatsApp Manager), so a tenant admin registers the ones
 * approved here (`/integrations/app-connections/{connectionId}/templates`); agents may then send
 * them to a customer whose 24-hour window has closed. A template is known by its name and language,
 * as the platform knows it; its body is the approved text with positional parameters `{{1}}`,
 * `{{2}}`…, which is how the transcript shows what the customer received.
 *
 * Stored in one Redis hash per connection (field `name:language`, the template as JSON), removed
 * with the connection.
 */
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { messagingKeys } from './redis-keys.js';

export const templateCategories = ['marketing', 'utility', 'authentication'] as const;
export type TemplateCategory = (typeof templateCategories)[number];

/** The platform's rules for what we register and send (Cloud API template limits), and our cap per connection. */
export const templateLimits = {
  /** The platform's: lowercase letters, digits and underscores, at most 512 characters. */
  name: /^[a-z0-9_]{1,512}$/,
  /** A language code as the platform spells them: `en`, `en_US`, `pt_BR`, `zh_CN`, `fil`. */
  language: /^[a-z]{2,3}(_[A-Z]{2})?$/,
  bodyChars: 1024,
  /** Parameters of one body, `{{1}}` to `{{n}}`. */
  bodyParameters: 20,
  /** One parameter's text: no line breaks or tabs, and no more than 4 spaces in a row (the platform refuses those). */
  parameterChars: 1024,
  perConnection: 200,
} as const;

/** A registered template, as the API shows it. */
export interface MessageTemplate {
  name: string;
  language: string;
  category: TemplateCategory;
  /** The approved body text, with `{{1}}`… where the parameters go. */
  body: string;
  /** How many parameters the body takes: the highest `{{n}}`. */
  bodyParameters: number;
  createdAt: string;
}

export type NewTemplate = Pick<MessageTemplate, 'name' | 'language' | 'category' | 'body'>;

/** A template as an agent sends it: which one, and the body's parameters in order. */
export interface TemplateSend {
  name: string;
  language: string;
  parameters: string[];
}

export class TemplateExistsError extends Error {
  constructor(readonly template: Pick<MessageTemplate, 'name' | 'language'>) {
    super(`The template ${template.name} (${template.language}) is already registered on this connection.`);
    this.name = 'TemplateExistsError';
  }
}

export class TemplateLimitError extends Error {
  constructor() {
    super(`A connection holds at most ${templateLimits.perConnection} templates: remove one first.`);
    this.name = 'TemplateLimitError';
  }
}

/**
 * What is wrong with a body's parameters, or the count it takes: `{{n}}` numbered from 1 without
 * gaps (the platform refuses a body that skips one), each number used once or more.
 */
export function bodyParametersOf(body: string): { count: number } | { problem: string } {
  const numbers = [...body.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)].map(([, inside]) => inside!);
  const bad = numbers.find((inside) => !/^[1-9]\d{0,2}$/.test(inside));
  if (bad !== undefined) return { problem: `{{${bad}}} is not a positional parameter: write {{1}}, {{2}}, …` };
  const used = new Set(numbers.map(Number));
  const count = used.size === 0 ? 0 : Math.max(...used);
  if (count > templateLimits.bodyParameters)
    return { problem: `a body takes at most ${templateLimits.bodyParameters} parameters` };
  for (let n = 1; n <= count; n++)
    if (!used.has(n)) return { problem: `{{${n}}} is missing: parameters are numbered from 1 without gaps` };
  return { count };
}

/** Why these parameters cannot be sent with this template (checked before sending), or none. */
export function parameterProblems(template: Pick<MessageTemplate, 'bodyParameters'>, parameters: string[]): string[] {
  const problems: string[] = [];
  if (parameters.length !== template.bodyParameters) {
    problems.push(`the template takes ${template.bodyParameters} body parameters, ${parameters.length} were given`);
  }
  parameters.forEach((value, i) => {
    if (value.trim() === '') problems.push(`parameter ${i + 1} is blank`);
    else if (/[\n\r\t]/.test(value)) problems.push(`parameter ${i + 1} has a line break or tab, which templates refuse`);
    else if (/ {5}/.test(value)) problems.push(`parameter ${i + 1} has more than 4 spaces in a row, which templates refuse`);
    else if ([...value].length > templateLimits.parameterChars) {
      problems.push(`parameter ${i + 1} is longer than ${templateLimits.parameterChars} characters`);
    }
  });
  return problems;
}

/** The text the customer receives: the body with each `{{n}}` replaced by its parameter. */
export function renderTemplate(body: string, parameters: string[]): string {
  return body.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => parameters[Number(n) - 1] ?? whole);
}

/** The Cloud API payload of a template send: `type: template`, the body's parameters as text. */
export function templatePayload(to: string, { name, language, parameters }: TemplateSend) {
  return {
    messaging_product: 'whatsapp' as const,
    recipient_type: 'individual' as const,
    to,
    type: 'template' as const,
    template: {
      name,
      language: { code: language },
      ...(parameters.length > 0
        ? { components: [{ type: 'body', parameters: parameters.map((text) => ({ type: 'text', text })) }] }
        : {}),
    },
  };
}

/** Templates per connection in Redis; every function fails with a DependencyUnavailableError when Redis is away. */
export function createMessageTemplates(redis: RedisClient, prefix: string, now: () => Date = () => new Date()) {
  const keys = messagingKeys(prefix);
  const field = (name: string, language: string) => `${name}:${language}`;

  return tagUnavailable('redis', {
    /** Registers a template; one of the same name and language: TemplateExistsError; the connection full: TemplateLimitError. */
    async add(connectionId: string, input: NewTemplate, bodyParameters: number): Promise<MessageTemplate> {
      const template: MessageTemplate = { ...input, bodyParameters, createdAt: now().toISOString() };
      // Count and add in one step, so that two registrations at once cannot pass the cap together.
      const added = await redis.eval(
        `if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return -1 end
         if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return -2 end
         return redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])`,
        {
          keys: [keys.templates(connectionId)],
          arguments: [field(input.name, input.language), JSON.stringify(template), String(templateLimits.perConnection)],
        },
      );
      if (added === -1) throw new TemplateExistsError(input);
      if (added === -2) throw new TemplateLimitError();
      return template;
    },

    /** By name, then language. */
    async list(connectionId: string): Promise<MessageTemplate[]> {
      const hash = await redis.hGetAll(keys.templates(connectionId));
      return Object.values(hash)
        .map((json) => JSON.parse(json) as MessageTemplate)
        .sort((a, b) => a.name.localeCompare(b.name) || a.language.localeCompare(b.language));
    },

    async get(connectionId: string, name: string, language: string): Promise<MessageTemplate | undefined> {
      const json = await redis.hGet(keys.templates(connectionId), field(name, language));
      return json ? (JSON.parse(json) as MessageTemplate) : undefined;
    },

    /** True when there was one to remove. */
    async remove(connectionId: string, name: string, language: string): Promise<boolean> {
      return (await redis.hDel(keys.templates(connectionId), field(name, language))) > 0;
    },

    /** Every template of a connection (when the connection is removed). */
    async removeAll(connectionId: string): Promise<void> {
      await redis.del(keys.templates(connectionId));
    },
  });
}

export type MessageTemplates = ReturnType<typeof createMessageTemplates>;
