import { randomUUID } from 'node:crypto';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/*
 * Hostile requests for every operation the API documents about itself (`/openapi.json`): each one
 * picks an operation, then fills its path, query, credentials and body with a mix of what the route
 * expects and what it must refuse (wrong types, oversized and deeply nested values, malformed JSON,
 * other schemes' credentials, ids of the wrong shape). The same seed gives the same requests, so a
 * failure is reproduced by its seed and index.
 */

/** What a fuzzing run may present: real credentials and ids of one tenant, made before the run. */
export interface KnownValues {
  adminToken: string;
  apiKey: string;
  operatorKey: string;
  userToken: string;
  visitorToken: string;
  tenantId: string;
  knowledgeBaseId: string;
  conversationId: string;
}

export interface HostileRequest {
  method: string;
  /** Path and query string. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The documented operation it was made for, `POST /ingest`. */
  operation: string;
}

interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  format?: string;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maxLength?: number;
}

interface Operation {
  method: string;
  template: string;
  security: string[];
  query: string[];
  headers: string[];
  body?: Schema;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, Schema> };
}

export type Random = (from: number, to: number) => number;

export function seededRandom(seed: number): Random {
  const rng = xoroshiro128plus(seed);
  return (from, to) => uniformInt(rng, from, to);
}

const pick = <T>(random: Random, values: readonly T[]): T => values[random(0, values.length - 1)]!;
const chance = (random: Random, percent: number) => random(1, 100) <= percent;

/** Values no route should choke on, whatever it expects there. */
const hostileScalars: unknown[] = [
  null,
  '',
  ' ',
  -1,
  0,
  1e308,
  -1e308,
  1.5,
  2 ** 53 + 1,
  true,
  'NaN',
  '1e309',
  '__proto__',
  '\u0000',
  '\uD800',
  '😀'.repeat(100),
  '<script>alert(1)</script>',
  "'; DROP TABLE x; --",
  '../../etc/passwd',
  'x'.repeat(100_000),
  [],
  {},
  JSON.parse('{"__proto__": {"polluted": true}}'),
  { constructor: { prototype: { polluted: true } } },
];

const hostileSegments = [
  randomUUID(),
  'x',
  '%00',
  '..%2F..%2Fadmin',
  '%FF%FE',
  `${randomUUID()}:messages`,
  'a'.repeat(4_000),
  '%F0%9F%98%80',
  '-1',
  '1e309',
  '%7B%22a%22%3A1%7D',
  'undefined',
];

const hostileQueryValues = ['', '-1', '0', '1e12', 'NaN', 'true', '%00', 'x'.repeat(10_000), '[]', '{"a":1}', '😀'];

/** Bodies that are not what any JSON route accepts, as raw text. */
function rawHostileBody(random: Random): { body: string; contentType?: string } {
  const depth = random(1_000, 20_000);
  return pick(random, [
    () => ({ body: '{' }),
    () => ({ body: '{"a":' }),
    () => ({ body: 'null' }),
    () => ({ body: '[]' }),
    () => ({ body: '42' }),
    () => ({ body: '"text"' }),
    () => ({ body: '' }),
    () => ({ body: '\uFEFF{}' }),
    () => ({ body: '{"a":1,"a":2}' }),
    () => ({ body: '['.repeat(depth) + ']'.repeat(depth) }),
    () => ({ body: '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) }),
    () => ({ body: JSON.stringify({ text: 'x'.repeat(random(1, 8) * 1_000_000) }) }),
    () => ({ body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' }),
    () => ({ body: '<xml/>', contentType: 'application/xml' }),
    () => ({ body: '{}', contentType: 'text/plain' }),
    () => ({ body: '{}', contentType: 'application/json; charset=utf-16' }),
    () => ({ body: '\u0000\u0001\u0002', contentType: 'application/octet-stream' }),
  ])();
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (method === 'parameters') continue;
      const parameters: Array<{ in: string; name: string }> = operation.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        template,
        security: (operation.security ?? []).flatMap((requirement: object) => Object.keys(requirement)),
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        headers: parameters.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase()),
        body: operation.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return operations;
}

/** An endless supply of hostile requests for `document`'s operations, the same for the same seed. */
export function hostileRequests(document: OpenApiDocument, known: KnownValues, random: Random) {
  const operations = operationsOf(document);
  const resolve = (schema: Schema | undefined): Schema | undefined => {
    const name = schema?.$ref?.split('/').pop();
    return name ? resolve(document.components?.schemas?.[name]) : schema;
  };

  function plausible(schema: Schema | undefined, depth = 0): unknown {
    const resolved = resolve(schema);
    if (!resolved || depth > 6) return 'x';
    const options = resolved.oneOf ?? resolved.anyOf;
    if (options) return plausible(pick(random, options), depth + 1);
    if (resolved.allOf) return Object.assign({}, ...resolved.allOf.map((part) => plausible(part, depth + 1)));
    if (resolved.enum) return pick(random, resolved.enum);
    const type = Array.isArray(resolved.type) ? resolved.type[0] : resolved.type;
    switch (type) {
      case 'object': {
        const value: Record<string, unknown> = {};
        for (const [name, property] of Object.entries(resolved.properties ?? {})) {
          if (resolved.required?.includes(name) || chance(random, 40)) value[name] = plausible(property, depth + 1);
        }
        return value;
      }
      case 'array':
        return Array.from({ length: random(0, 3) }, () => plausible(resolved.items, depth + 1));
      case 'integer':
      case 'number':
        return resolved.minimum ?? random(0, 100);
      case 'boolean':
        return chance(random, 50);
      default:
        return pick(random, [knownFormat(resolved.format), 'Hostile text', randomUUID()]);
    }
  }

  function knownFormat(format: string | undefined): string {
    if (format === 'uri') return 'http://127.0.0.1:6379/';
    if (format === 'email') return 'visitor@example.com';
    if (format === 'date-time') return new Date().toISOString();
    if (format === 'uuid') return randomUUID();
    return 'text';
  }

  /** A plausible body with one to three places replaced by hostile values. */
  function mutated(schema: Schema): unknown {
    let body = plausible(schema);
    for (let i = random(1, 3); i > 0; i--) body = replaceSomewhere(body);
    return body;
  }

  function replaceSomewhere(value: unknown): unknown {
    if (value && typeof value === 'object' && chance(random, 75)) {
      const keys = Object.keys(value);
      if (keys.length > 0) {
        const key = pick(random, keys);
        // Not spread: an array whose __proto__ an earlier round replaced has no iterator left.
        const copy: any = Array.isArray(value) ? Array.prototype.slice.call(value) : { ...value };
        copy[key] = replaceSomewhere(copy[key]);
        if (chance(random, 10)) copy[pick(random, ['__proto__', 'constructor', 'extra', ''])] = pick(random, hostileScalars);
        return copy;
      }
    }
    return pick(random, [...hostileScalars, Array.from({ length: 10_000 }, () => 1)]);
  }

  function pathOf(template: string): string {
    return template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const real = realValueOf(name);
      return real && chance(random, 60) ? real : pick(random, hostileSegments);
    });
  }

  function realValueOf(parameter: string): string | undefined {
    if (parameter === 'tenantId') return known.tenantId;
    if (parameter === 'kbId' || parameter === 'knowledgeBaseId') return known.knowledgeBaseId;
    if (parameter === 'conversationId') return known.conversationId;
    return undefined;
  }

  function credentialsFor(operation: Operation): Record<string, string> {
    const right = chance(random, 75);
    const scheme = right ? operation.security[0] : pick(random, ['admin', 'apiKey', 'userToken', 'operatorKey', 'none', 'bad']);
    const headers: Record<string, string> = {};
    if (scheme === 'admin') headers.authorization = `Bearer ${known.adminToken}`;
    if (scheme === 'userToken') headers.authorization = `Bearer ${known.userToken}`;
    if (scheme === 'apiKey') headers['x-api-key'] = known.apiKey;
    if (scheme === 'operatorKey') {
      headers['x-operator-key'] = known.operatorKey;
      headers.origin = pick(random, ['https://shop.example.com', 'null', 'https://evil.example']);
    }
    if (scheme === 'bad') {
      headers.authorization = pick(random, ['Bearer ', 'Basic Zm9vOmJhcg==', `Bearer ${'x'.repeat(8_000)}`, 'Bearer \u00ff']);
      headers['x-api-key'] = pick(random, ['', 'kb_live_x', 'x'.repeat(8_000)]);
      headers['x-operator-key'] = pick(random, ['op_', 'op_x'.repeat(100)]);
    }
    if (operation.headers.includes('x-visitor-token'))
      headers['x-visitor-token'] = chance(random, 70) ? known.visitorToken : pick(random, ['', 'vt_x', 'x'.repeat(5_000)]);
    if (operation.headers.includes('x-hub-signature-256'))
      headers['x-hub-signature-256'] = pick(random, ['sha256=00', 'sha256=', 'md5=1', 'x'.repeat(1_000)]);
    if (operation.headers.includes('x-shop-hmac-sha256')) headers['x-shop-hmac-sha256'] = pick(random, ['', 'AAAA', '====']);
    return headers;
  }

  function queryOf(operation: Operation): string {
    const names = [...operation.query, ...(chance(random, 20) ? ['unknown', 'page[size]', '__proto__'] : [])];
    const pairs = names
      .filter(() => chance(random, 60))
      .map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(pick(random, hostileQueryValues))}`);
    if (chance(random, 10)) pairs.push('limit=1&limit=2');
    return pairs.length ? `?${pairs.join('&')}` : '';
  }

  return function next(): HostileRequest {
    const operation = pick(random, operations);
    // Now and then the wrong method for a documented path.
    const method = chance(random, 8) ? pick(random, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) : operation.method;
    const headers = credentialsFor(operation);
    let body: string | undefined;
    if (operation.body || chance(random, 10)) {
      if (operation.body && chance(random, 60)) body = JSON.stringify(mutated(operation.body));
      else {
        const raw = rawHostileBody(random);
        body = raw.body;
        if (raw.contentType) headers['content-type'] = raw.contentType;
      }
      headers['content-type'] ??= 'application/json';
    }
    if (method === 'GET' || method === 'HEAD') body = undefined;
    return {
      method,
      path: pathOf(operation.template) + queryOf(operation),
      headers,
      body,
      operation: `${operation.method} ${operation.template}`,
    };
  };
}
