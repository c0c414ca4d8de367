import { openAsBlob, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { LocalSecrets } from '#platform/config.js';
import { AdminApiError, createAdminClient, createApiClient } from './admin-client.js';

/**
 * The operator's command line over the `/admin` HTTP API: `npm run admin -- <command>`. Each command
 * is one request (one per file, for `files upload`), described by a row of `commands`; the response
 * is printed as JSON.
 */

const options = {
  'api-url': { type: 'string' },
  'token-stdin': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  scope: { type: 'string', multiple: true },
  'expires-at': { type: 'string' },
  'knowledge-base': { type: 'string' },
  domain: { type: 'string', multiple: true },
  locale: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  'start-url': { type: 'string', multiple: true },
  sitemap: { type: 'string', multiple: true },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  'max-pages': { type: 'string' },
  'every-minutes': { type: 'string' },
  'confirm-deletions': { type: 'boolean' },
} as const;

const globalOptions = ['api-url', 'token-stdin', 'help'] as const;
type FieldOption = Exclude<keyof typeof options, (typeof globalOptions)[number]>;
type Values = ReturnType<typeof parse>['values'];

const parse = (argv: string[]) => parseArgs({ args: argv, options, allowPositionals: true });

interface Command {
  /**
   * Whose token the request carries: the operator's admin token (the `/admin` routes), or a tenant
   * admin's user token (the tenant's own routes, such as its connectors).
   */
  as?: 'user';
  /** Names of the positional arguments, in order. */
  args: string[];
  /**
   * The name of a last positional argument given once or more (`<path>...`): one request for each,
   * made in turn with the arguments before it; one refused does not stop the others.
   */
  each?: string;
  required?: FieldOption[];
  optional?: FieldOption[];
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Receives the positional arguments URL-encoded. */
  path: (args: string[]) => string;
  /** The JSON body, or a `FormData`; may be a promise of it. */
  body?: (args: string[], values: Values) => unknown;
}

const tenant = ([tenantId]: string[]) => `/admin/tenants/${tenantId}`;
const reindex = (args: string[]) => `${tenant(args)}/knowledge-bases/${args[1]}/reindex`;
const operator = (args: string[]) => `${tenant(args)}/operators/${args[1]}`;
const user = (args: string[]) => `${tenant(args)}/users/${args[1]}`;
const connector = ([connectorId]: string[]) => `/connectors/${connectorId}`;
const file = (args: string[]) => `${connector(args)}/files/${args[1]}`;

// Fields left undefined are dropped by JSON.stringify, so a PATCH sends only what was given.
const operatorFields = (values: Values) => ({
  name: values.name,
  knowledgeBaseId: values['knowledge-base'],
  allowedDomains: values.domain,
  locale: values.locale,
});

const commands: Record<string, Command> = {
  'tenants create': { args: ['name'], method: 'POST', path: () => '/admin/tenants', body: ([name]) => ({ name }) },
  'tenants get': { args: ['tenantId'], method: 'GET', path: tenant },
  'knowledge-bases create': {
    args: ['tenantId', 'name'],
    method: 'POST',
    path: (args) => `${tenant(args)}/knowledge-bases`,
    body: ([, name]) => ({ name }),
  },
  'knowledge-bases list': { args: ['tenantId'], method: 'GET', path: (args) => `${tenant(args)}/knowledge-bases` },
  'knowledge-bases reindex': { args: ['tenantId', 'knowledgeBaseId'], method: 'POST', path: reindex },
  'knowledge-bases reindex-status': { args: ['tenantId', 'knowledgeBaseId'], method: 'GET', path: reindex },
  'api-keys create': {
    args: ['tenantId'],
    required: ['name', 'scope'],
    optional: ['expires-at'],
    method: 'POST',
    path: (args) => `${tenant(args)}/api-keys`,
    body: (_, values) => ({ name: values.name, scopes: values.scope, expiresAt: values['expires-at'] }),
  },
  'secrets reseal': { args: [], method: 'POST', path: () => '/admin/secrets/reseal' },
  'api-keys list': { args: ['tenantId'], method: 'GET', path: (args) => `${tenant(args)}/api-keys` },
  'api-keys deactivate': {
    args: ['tenantId', 'keyId'],
    method: 'PATCH',
    path: (args) => `${tenant(args)}/api-keys/${args[1]}`,
    body: () => ({ active: false }),
  },
  'operators create': {
    args: ['tenantId'],
    required: ['name'],
    optional: ['knowledge-base', 'domain', 'locale'],
    method: 'POST',
    path: (args) => `${tenant(args)}/operators`,
    body: (_, values) => operatorFields(values),
  },
  'operators list': { args: ['tenantId'], method: 'GET', path: (args) => `${tenant(args)}/operators` },
  'operators rotate-key': { args: ['tenantId', 'operatorId'], method: 'POST', path: (args) => `${operator(args)}/key` },
  'operators disable': { args: ['tenantId', 'operatorId'], method: 'PATCH', path: operator, body: () => ({ active: false }) },
  'operators enable': { args: ['tenantId', 'operatorId'], method: 'PATCH', path: operator, body: () => ({ active: true }) },
  'operators update': {
    args: ['tenantId', 'operatorId'],
    optional: ['name', 'knowledge-base', 'domain', 'locale'],
    method: 'PATCH',
    path: operator,
    body: (_, values) => operatorFields(values),
  },
  'users create': {
    args: ['tenantId'],
    required: ['name', 'email', 'role'],
    method: 'POST',
    path: (args) => `${tenant(args)}/users`,
    body: (_, values) => ({ name: values.name, email: values.email, role: values.role }),
  },
  'users list': { args: ['tenantId'], method: 'GET', path: (args) => `${tenant(args)}/users` },
  'users deactivate': { args: ['tenantId', 'userId'], method: 'PATCH', path: user, body: () => ({ active: false }) },
  'users reactivate': { args: ['tenantId', 'userId'], method: 'PATCH', path: user, body: () => ({ active: true }) },
  'users rotate-token': { args: ['tenantId', 'userId'], method: 'POST', path: (args) => `${user(args)}/token` },
  'websites add': {
    as: 'user',
    args: [],
    required: ['name'],
    optional: ['start-url', 'sitemap', 'include', 'exclude', 'max-pages', 'every-minutes', 'knowledge-base'],
    method: 'POST',
    path: () => '/connectors/website',
    body: (_, values) => ({
      name: values.name,
      knowledgeBaseId: values['knowledge-base'],
      syncEveryMinutes: numberOf(values['every-minutes']),
      data: {
        startUrls: values['start-url'],
        sitemaps: values.sitemap,
        include: values.include,
        exclude: values.exclude,
        maxPages: numberOf(values['max-pages']),
      },
    }),
  },
  'connectors list': { as: 'user', args: [], method: 'GET', path: () => '/connectors' },
  'connectors get': { as: 'user', args: ['connectorId'], method: 'GET', path: connector },
  'connectors sync': {
    as: 'user',
    args: ['connectorId'],
    optional: ['confirm-deletions'],
    method: 'POST',
    path: (args) => `${connector(args)}/sync`,
    body: (_, values) => ({ confirmDeletions: values['confirm-deletions'] }),
  },
  'connectors remove': { as: 'user', args: ['connectorId'], method: 'DELETE', path: connector },
  'files add-source': {
    as: 'user',
    args: [],
    required: ['name'],
    optional: ['knowledge-base'],
    method: 'POST',
    path: () => '/connectors/files',
    body: (_, values) => ({ name: values.name, knowledgeBaseId: values['knowledge-base'] }),
  },
  'files upload': {
    as: 'user',
    args: ['connectorId'],
    each: 'path',
    method: 'POST',
    path: (args) => `${connector(args)}/files`,
    body: ([, path]) => fileForm(path!),
  },
  'files list': { as: 'user', args: ['connectorId'], method: 'GET', path: (args) => `${connector(args)}/files` },
  'files get': { as: 'user', args: ['connectorId', 'fileId'], method: 'GET', path: file },
  'files remove': { as: 'user', args: ['connectorId', 'fileId'], method: 'DELETE', path: file },
};

/** A file that cannot be sent: it is missing, or not a file. */
class UnreadableFileError extends Error {}

/** A file as a multipart body (the part `file`, named by its base name), read from disk as it is sent. */
async function fileForm(path: string): Promise<FormData> {
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch (error) {
    throw new UnreadableFileError((error as Error).message);
  }
  if (!isFile) throw new UnreadableFileError('not a file');
  const form = new FormData();
  form.append('file', await openAsBlob(path), basename(path));
  return form;
}

/** A number option as the API wants it; left out when not given (a non-number is the API's to refuse). */
function numberOf(value: string | undefined): number | string | undefined {
  if (value === undefined) return undefined;
  return Number.isFinite(Number(value)) && value.trim() !== '' ? Number(value) : value;
}

const placeholders: Partial<Record<FieldOption, string>> = {
  'expires-at': 'iso-timestamp',
  'start-url': 'url',
  sitemap: 'url',
  include: 'path-pattern',
  exclude: 'path-pattern',
  'knowledge-base': 'knowledgeBaseId',
  domain: 'pattern',
  role: 'admin|agent',
};

function commandUsage(name: string, command: Command): string {
  const flag = (option: FieldOption) =>
    options[option].type === 'boolean'
      ? `--${option}`
      : `--${option} <${placeholders[option] ?? option}>${'multiple' in options[option] ? '...' : ''}`;
  return [
    name,
    ...command.args.map((arg) => `<${arg}>`),
    ...(command.each ? [`<${command.each}>...`] : []),
    ...(command.required ?? []).map(flag),
    ...(command.optional ?? []).map((option) => `[${flag(option)}]`),
  ].join(' ');
}

const usage = `Usage: npm run admin -- <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, command]) => `  ${commandUsage(name, command)}`)
  .join('\n')}

Options:
  --api-url <url>    the API (default: $API_URL, else http://127.0.0.1:$PORT, PORT defaulting to 3000)
  --token-stdin      read the token from standard input (its first line); without it, the admin token
                     is $ADMIN_TOKEN, else adminToken in $DATA_DIR/secrets.json (DATA_DIR defaulting
                     to .data), and a tenant admin's user token (websites, connectors, files) is
                     $USER_TOKEN. Never on the command line, where every user of the machine sees it.
  -h, --help         print this text
`;

export interface AdminCliIo {
  env: Record<string, string | undefined>;
  /** Read with --token-stdin only. */
  stdin?: AsyncIterable<string | Buffer>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

class UsageError extends Error {}

/** Runs one command; resolves to the process exit code (0 done, 1 failed, 2 usage error). */
export async function runAdminCli(argv: string[], io: AdminCliIo): Promise<number> {
  let request: ReturnType<typeof parseCommand>;
  try {
    request = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`error: ${error.message}\n\n${usage}`);
    return 2;
  }
  if (request === 'help') {
    io.stdout.write(usage);
    return 0;
  }

  const { command, args, values } = request;
  const baseUrl = values['api-url'] ?? io.env.API_URL ?? `http://127.0.0.1:${io.env.PORT ?? 3000}`;
  const secretsFile = join(io.env.DATA_DIR ?? '.data', 'secrets.json');
  const fromStdin = values['token-stdin'] ? await firstLine(io.stdin) : undefined;
  const token =
    command.as === 'user'
      ? (fromStdin ?? io.env.USER_TOKEN)
      : (fromStdin ?? io.env.ADMIN_TOKEN ?? readLocalAdminToken(secretsFile));
  if (!token) {
    io.stderr.write(
      command.as === 'user'
        ? "error: no user token: this command acts as a tenant's admin; set USER_TOKEN, or pipe it in with --token-stdin (users create and users rotate-token print one)\n"
        : `error: no admin token: set ADMIN_TOKEN, pipe it in with --token-stdin, or start the service once to create ${secretsFile}\n`,
    );
    return 1;
  }

  const client =
    command.as === 'user'
      ? createApiClient({ baseUrl, headers: { authorization: `Bearer ${token}` } })
      : createAdminClient({ baseUrl, adminToken: token });
  const fixed = args.slice(0, command.args.length);
  const requests = command.each ? args.slice(fixed.length).map((each) => [...fixed, each]) : [args];
  let exitCode = 0;
  try {
    for (const requestArgs of requests) {
      // A refusal of one of several requests names what it was refused for.
      const about = command.each ? `${requestArgs.at(-1)}: ` : '';
      try {
        const body = await command.body?.(requestArgs, values);
        const result = await client.request(command.method, command.path(requestArgs.map(encodeURIComponent)), body);
        // A 204 (a connector removed) has nothing to print.
        if (result !== undefined) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      } catch (error) {
        if (error instanceof AdminApiError) {
          io.stderr.write(`error: ${about}${error.body?.error?.code ?? `http_${error.status}`}: ${error.message}\n`);
          for (const detail of error.body?.error?.details ?? []) io.stderr.write(`  ${detail.path ?? ''}: ${detail.message}\n`);
        } else if (error instanceof UnreadableFileError) {
          io.stderr.write(`error: ${about}cannot send it: ${error.message}\n`);
        } else throw error;
        exitCode = 1;
      }
    }
    return exitCode;
  } catch (error) {
    // fetch reports an unreachable server as a TypeError whose cause is the socket error.
    if (error instanceof TypeError && error.cause instanceof Error) {
      io.stderr.write(`error: cannot reach ${baseUrl}: ${error.cause.message}\n`);
      return 1;
    }
    throw error;
  }
}

function parseCommand(argv: string[]) {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    if (!String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS')) throw error;
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';

  const name = positionals.slice(0, 2).join(' ');
  const command = commands[name];
  if (!command) throw new UsageError(name ? `unknown command "${name}"` : 'no command given');
  const args = positionals.slice(2);
  const wrongCount = command.each ? args.length <= command.args.length : args.length !== command.args.length;
  if (wrongCount) throw new UsageError(`usage: ${commandUsage(name, command)}`);

  const accepted = new Set<string>([...globalOptions, ...(command.required ?? []), ...(command.optional ?? [])]);
  const unexpected = Object.keys(values).find((option) => !accepted.has(option));
  if (unexpected) throw new UsageError(`${name} does not take --${unexpected}`);
  const missing = command.required?.find((option) => values[option] === undefined);
  if (missing) throw new UsageError(`${name} needs --${missing}`);

  return { command, args, values };
}

/** The first line of standard input, trimmed; undefined when there is none. */
async function firstLine(input: AsyncIterable<string | Buffer> | undefined): Promise<string | undefined> {
  let text = '';
  for await (const chunk of input ?? []) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0]!.trim() || undefined;
}

function readLocalAdminToken(file: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>).adminToken;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runAdminCli(process.argv.slice(2), process);
}
