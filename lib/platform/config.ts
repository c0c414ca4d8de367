import { createAjv } from './json-schema.js';
import { variables, type ProcessRole, type VariableName, type VariableSpec } from './config-variables.js';

export type { ProcessRole };

export interface Config {
  env: 'development' | 'test' | 'production';
  host: string;
  port: number;
  cdnPort: number;
  publicBaseUrl: string;
  /** What the widget demo page suggests asking (DEMO_QUESTIONS); none when unset. */
  demoQuestions: string[];
  /** Proxies in front of the API that append to X-Forwarded-For: 0 reads the socket's address. */
  trustedProxyHops: number;
  /** Template of a help-centre article's address, with {knowledgeBaseId} and {slug}. */
  helpCenterArticleUrl: string;
  temporal: { address: string; namespace: string; taskQueue: string };
  weaviate: { url: string; grpcPort: number; grpcHost?: string; apiKey?: string };
  redis: { url: string; prefix: string };
  graphApiBaseUrl: string;
  /** Where the built-in connectors send what they ingest: this service's own public API. */
  connectorsApiUrl: string;
  /** Requests made on a tenant's behalf (lib/platform/outbound/). */
  outbound: { allowPrivateNetworks: boolean; maxResponseBytes: number };
  /** Outbound events to tenants' endpoints: retries (docs/outbound-events.md) and one request's time. */
  events: { horizonMs: number; maxIntervalMs: number; requestTimeoutMs: number };
  embeddings: EmbeddingsConfig;
  /**
   * The local model's folder when EMBEDDINGS_MODEL_DIR sets it (else where the set-up puts it): the
   * worker compares sentences with that model whatever embeds the chunks.
   */
  localModelDir?: string;
  /** How the local model runs: sessions (threads of their own) and onnxruntime threads per session. */
  localModel: { sessions: number; threadsPerSession: number };
  /** Cosine similarity below which a passage does not match by meaning alone. */
  searchMinSimilarity: number;
  ingestConcurrency: number;
  /** What a worker process does (worker/task-queues.ts). */
  workerRole: 'all' | 'core' | 'embedder';
  /** The built-in connectors' bounds: worker slots of their own, pages per sync run, connectors per tenant. */
  connectors: { concurrency: number; maxPagesPerRun: number; perTenant: number };
  answers: AnswersConfig;
  /** When a retrieved source is evidence enough to answer from (lib/answering/evidence.ts). */
  answerEvidence: { minSimilarity: number; minCoverage: number; confidentSimilarity: number; minSentenceSimilarity: number };
  conversations: ConversationsConfig;
  /** Set for the API (the only process that reads it) and everywhere outside production. */
  adminToken?: string;
  /** 32 bytes, for AES-256-GCM; set for the API and the worker, and everywhere outside production. */
  secretsKey?: Buffer;
  /** Earlier secrets keys (32 bytes each) that still open what they sealed during a rotation; often empty. */
  previousSecretsKeys: Buffer[];
  dataDir: string;
  logLevel: string;
  bodyLimitBytes: number;
  /** How long an agent's action waits for its workflow (WORKFLOW_WAIT_SECONDS). */
  workflowWaitMs: number;
  /** How long a cleanup request waits for the cleanup (CLEANUP_WAIT_SECONDS). */
  cleanupWaitMs: number;
  /** Seconds the content-gaps clustering waits for gaps to settle (CONTENT_GAPS_SETTLE_SECONDS). */
  contentGapsSettleSeconds: number;
  rateLimitPerMinute: number;
  /** Per-address budgets of the hosted help centre (docs/articles.md). */
  helpCentre: { pagesPerMinute: number; feedbackPerAddress: number };
  /** The lifecycle of tenants' credentials. */
  credentials: { userTokenLifetimeMs: number; operatorKeyGraceMs: number };
  /** Budgets of the dashboard-area and admin routes. */
  userPerMinute: number;
  adminPerMinute: number;
  refusedTokensPerMinute: number;
  streams: StreamsConfig;
  /** How long a stopping process lets work under way finish (SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceMs: number;
  /** The worker's health listener (HEALTH_PORT); none when unset. */
  healthPort?: number;
  telemetry: TelemetryConfig;
}

/** Metrics endpoints (each on a port of its own) and where traces go. */
export interface TelemetryConfig {
  metrics: { enabled: boolean; host: string; apiPort: number; workerPort: number; temporalPort: number };
  /** The OTLP/HTTP collector's base address; without one nothing is traced. */
  otlpEndpoint?: string;
}

/** What bounds the API's event streams. */
export interface StreamsConfig {
  maxLifetimeMs: number;
  perConversation: number;
  perAddress: number;
  perUser: number;
  slowReaderBytes: number;
  slowReaderMs: number;
  recheckMs: number;
}

export type EmbeddingsConfig =
  /** Without a folder, the model is where the set-up puts it (lib/knowledge/embeddings/minilm/model-files.ts). */
  | { provider: 'local'; modelDir?: string }
  | { provider: 'hashed'; dimensions: number }
  | {
      provider: 'openai';
      baseUrl: string;
      model: string;
      apiKey: string;
      dimensions: number;
      sendDimensions: boolean;
      batchSize: number;
    };

export type AnswersConfig =
  { provider: 'extractive' } | { provider: 'openai'; baseUrl: string; model: string; apiKey: string; maxTokens: number };

export interface ConversationsConfig {
  agentWaitNoticeMs: number;
  idleTimeoutMs: number;
  visitorPerMinute: number;
  operatorPerMinute: number;
  configPerMinute: number;
  conversationsPerHour: number;
  /** Requests per client address on conversations' routes (CHAT_ADDRESS_PER_MINUTE). */
  addressPerMinute: number;
  /** Daily shares of the operator's answers: per client address, per conversation. */
  answersPerAddressPerDay: number;
  answersPerConversationPerDay: number;
  ratingsPerVisitor: number;
  ratingsOperatorPerMinute: number;
  operatorAnswersPerDay: number;
  replyTimeoutMs: number;
}

/** The secrets a local (non-production) process falls back to when the environment lacks them. */
export interface LocalSecrets {
  adminToken: string;
  secretsKey: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;
type Values = { [K in VariableName]: string | number | undefined };

const specs: Record<string, VariableSpec> = variables;

const validate = createAjv({ coerceTypes: true, strict: false }).compile({
  type: 'object',
  properties: Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, spec.schema])),
});

export interface LoadOptions {
  /** The process reading its configuration: production requires only the variables it uses. */
  role: ProcessRole;
  /** Consulted only outside production, when ADMIN_TOKEN or SECRETS_KEY is unset. */
  localSecrets?: (dataDir: string) => LocalSecrets;
}

/**
 * Reads, checks and shapes the configuration. Each problem names its variable, says what was
 * expected and what the variable is for, and never echoes the value of a secret.
 */
export function loadConfig(env: Env, { role, localSecrets }: LoadOptions): Config {
  const values = readValues(env);
  const problems = describeProblems(values, env);

  const production = values.NODE_ENV === 'production';
  for (const [name, spec] of Object.entries(specs)) {
    if (production && spec.requiredInProduction && spec.usedBy.includes(role) && values[name as VariableName] === undefined) {
      problems.push(`${name} is required when NODE_ENV is production: ${spec.description}`);
    }
  }
  const embeddingsKey = specs.EMBEDDINGS_API_KEY!;
  if (values.EMBEDDINGS_PROVIDER === 'openai' && values.EMBEDDINGS_API_KEY === undefined && embeddingsKey.usedBy.includes(role)) {
    problems.push(`EMBEDDINGS_API_KEY is required when EMBEDDINGS_PROVIDER is openai: ${embeddingsKey.description}`);
  }
  const answersKey = specs.ANSWERS_API_KEY!;
  if (values.ANSWERS_PROVIDER === 'openai' && values.ANSWERS_API_KEY === undefined && answersKey.usedBy.includes(role)) {
    problems.push(`ANSWERS_API_KEY is required when ANSWERS_PROVIDER is openai: ${answersKey.description}`);
  }
  if (values.EMBEDDINGS_PROVIDER === 'local' && values.EMBEDDINGS_DIMENSIONS !== undefined) {
    problems.push(
      'EMBEDDINGS_DIMENSIONS does not apply to the local model, whose vectors have 384 dimensions: unset it, or choose hashed or openai',
    );
  }
  if (production && values.OUTBOUND_ALLOW_PRIVATE_NETWORKS === 'true') {
    problems.push(
      `OUTBOUND_ALLOW_PRIVATE_NETWORKS must not be true when NODE_ENV is production: ${specs.OUTBOUND_ALLOW_PRIVATE_NETWORKS!.description}`,
    );
  }
  const demoQuestions = readDemoQuestions(values.DEMO_QUESTIONS);
  if (!demoQuestions)
    problems.push(
      `DEMO_QUESTIONS must be a JSON array of at most 10 non-empty strings (got ${JSON.stringify(env.DEMO_QUESTIONS)}): ${specs.DEMO_QUESTIONS!.description}`,
    );
  if (problems.length > 0) throw new ConfigError(problems);

  let { ADMIN_TOKEN: adminToken, SECRETS_KEY: secretsKey } = values;
  if (!production && (adminToken === undefined || secretsKey === undefined)) {
    if (!localSecrets) throw new ConfigError([`${adminToken === undefined ? 'ADMIN_TOKEN' : 'SECRETS_KEY'} is not set`]);
    const local = localSecrets(String(values.DATA_DIR));
    adminToken ??= local.adminToken;
    secretsKey ??= local.secretsKey;
  }
  // The environment's value is checked by its pattern; one from the data folder is checked here.
  if (secretsKey !== undefined && Buffer.from(String(secretsKey), 'base64').length !== 32) {
    throw new ConfigError([
      `SECRETS_KEY (from ${String(values.DATA_DIR)}/secrets.json) must be 32 bytes in base64: ${specs.SECRETS_KEY!.description}`,
    ]);
  }

  const host = String(values.HOST);
  const port = Number(values.PORT);
  return {
    env: values.NODE_ENV as Config['env'],
    host,
    port,
    cdnPort: Number(values.CDN_PORT),
    publicBaseUrl: String(values.PUBLIC_BASE_URL ?? `http://${host}:${port}`).replace(/\/+$/, ''),
    demoQuestions: demoQuestions!,
    trustedProxyHops: Number(values.TRUSTED_PROXY_HOPS),
    helpCenterArticleUrl: String(
      values.HELP_CENTER_ARTICLE_URL ??
        `${String(values.PUBLIC_BASE_URL ?? `http://${host}:${port}`).replace(/\/+$/, '')}/help/{knowledgeBaseId}/{slug}`,
    ),
    temporal: {
      address: String(values.TEMPORAL_ADDRESS),
      namespace: String(values.TEMPORAL_NAMESPACE),
      taskQueue: String(values.TEMPORAL_TASK_QUEUE),
    },
    weaviate: {
      url: String(values.WEAVIATE_URL),
      grpcPort: Number(values.WEAVIATE_GRPC_PORT),
      ...(values.WEAVIATE_GRPC_HOST ? { grpcHost: String(values.WEAVIATE_GRPC_HOST) } : {}),
      ...(values.WEAVIATE_API_KEY ? { apiKey: String(values.WEAVIATE_API_KEY) } : {}),
    },
    redis: { url: String(values.REDIS_URL), prefix: String(values.REDIS_PREFIX) },
    graphApiBaseUrl: String(values.GRAPH_API_BASE_URL).replace(/\/+$/, ''),
    connectorsApiUrl: String(values.CONNECTORS_API_URL ?? values.PUBLIC_BASE_URL ?? `http://${host}:${port}`).replace(/\/+$/, ''),
    outbound: {
      allowPrivateNetworks: values.OUTBOUND_ALLOW_PRIVATE_NETWORKS === 'true',
      maxResponseBytes: Number(values.OUTBOUND_MAX_RESPONSE_BYTES),
    },
    events: {
      horizonMs: Number(values.EVENT_DELIVERY_HORIZON_SECONDS) * 1000,
      maxIntervalMs: Number(values.EVENT_DELIVERY_MAX_INTERVAL_SECONDS) * 1000,
      requestTimeoutMs: Number(values.EVENT_DELIVERY_TIMEOUT_SECONDS) * 1000,
    },
    embeddings: embeddingsConfig(values),
    ...(values.EMBEDDINGS_MODEL_DIR === undefined ? {} : { localModelDir: String(values.EMBEDDINGS_MODEL_DIR) }),
    searchMinSimilarity: Number(values.SEARCH_MIN_SIMILARITY ?? similarityDefaults[embeddingsProvider(values)].search),
    localModel: { sessions: Number(values.LOCAL_MODEL_SESSIONS), threadsPerSession: Number(values.LOCAL_MODEL_THREADS) },
    ingestConcurrency: Number(values.INGEST_CONCURRENCY),
    workerRole: values.WORKER_ROLE as Config['workerRole'],
    connectors: {
      concurrency: Number(values.CONNECTOR_CONCURRENCY),
      maxPagesPerRun: Number(values.CONNECTOR_MAX_PAGES_PER_RUN),
      perTenant: Number(values.CONNECTORS_PER_TENANT),
    },
    answers:
      values.ANSWERS_PROVIDER === 'openai'
        ? {
            provider: 'openai',
            baseUrl: String(values.ANSWERS_BASE_URL).replace(/\/+$/, ''),
            model: String(values.ANSWERS_MODEL),
            apiKey: String(values.ANSWERS_API_KEY ?? ''),
            maxTokens: Number(values.ANSWERS_MAX_TOKENS),
          }
        : { provider: 'extractive' },
    answerEvidence: {
      ...evidenceDefaults[embeddingsProvider(values)],
      ...(values.ANSWER_MIN_SIMILARITY === undefined ? {} : { minSimilarity: Number(values.ANSWER_MIN_SIMILARITY) }),
    },
    conversations: {
      agentWaitNoticeMs: Number(values.CONVERSATION_AGENT_WAIT_SECONDS) * 1000,
      idleTimeoutMs: Number(values.CONVERSATION_IDLE_MINUTES) * 60_000,
      visitorPerMinute: Number(values.CHAT_VISITOR_PER_MINUTE),
      operatorPerMinute: Number(values.CHAT_OPERATOR_PER_MINUTE),
      configPerMinute: Number(values.CHAT_CONFIG_PER_MINUTE),
      conversationsPerHour: Number(values.CHAT_CONVERSATIONS_PER_HOUR),
      addressPerMinute: Number(values.CHAT_ADDRESS_PER_MINUTE),
      answersPerAddressPerDay: Number(values.CHAT_ANSWERS_PER_ADDRESS_PER_DAY),
      answersPerConversationPerDay: Number(values.CHAT_ANSWERS_PER_CONVERSATION_PER_DAY),
      ratingsPerVisitor: Number(values.CHAT_RATINGS_PER_VISITOR),
      ratingsOperatorPerMinute: Number(values.CHAT_RATINGS_OPERATOR_PER_MINUTE),
      operatorAnswersPerDay: Number(values.OPERATOR_ANSWERS_PER_DAY),
      replyTimeoutMs: Number(values.CHAT_REPLY_TIMEOUT_SECONDS) * 1000,
    },
    ...(adminToken === undefined ? {} : { adminToken: String(adminToken) }),
    ...(secretsKey === undefined ? {} : { secretsKey: Buffer.from(String(secretsKey), 'base64') }),
    previousSecretsKeys: String(values.SECRETS_PREVIOUS_KEYS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key !== '')
      .map((key) => Buffer.from(key, 'base64')),
    dataDir: String(values.DATA_DIR),
    logLevel: String(values.LOG_LEVEL),
    bodyLimitBytes: Number(values.BODY_LIMIT_BYTES),
    workflowWaitMs: Number(values.WORKFLOW_WAIT_SECONDS) * 1000,
    cleanupWaitMs: Number(values.CLEANUP_WAIT_SECONDS) * 1000,
    contentGapsSettleSeconds: Number(values.CONTENT_GAPS_SETTLE_SECONDS),
    streams: {
      maxLifetimeMs: Number(values.STREAM_MAX_LIFETIME_SECONDS) * 1000,
      perConversation: Number(values.STREAMS_PER_CONVERSATION),
      perAddress: Number(values.STREAMS_PER_ADDRESS),
      perUser: Number(values.STREAMS_PER_USER),
      slowReaderBytes: Number(values.STREAM_SLOW_READER_BYTES),
      slowReaderMs: Number(values.STREAM_SLOW_READER_SECONDS) * 1000,
      recheckMs: Number(values.STREAM_RECHECK_SECONDS) * 1000,
    },
    rateLimitPerMinute: Number(values.RATE_LIMIT_PER_MINUTE),
    helpCentre: {
      pagesPerMinute: Number(values.HELP_CENTRE_PAGES_PER_MINUTE),
      feedbackPerAddress: Number(values.HELP_CENTRE_FEEDBACK_PER_ADDRESS),
    },
    telemetry: {
      metrics: {
        enabled: values.METRICS_ENABLED === 'true',
        host: String(values.METRICS_HOST),
        apiPort: Number(values.METRICS_PORT),
        workerPort: Number(values.WORKER_METRICS_PORT),
        temporalPort: Number(values.TEMPORAL_METRICS_PORT),
      },
      ...(values.OTEL_EXPORTER_OTLP_ENDPOINT === undefined
        ? {}
        : { otlpEndpoint: String(values.OTEL_EXPORTER_OTLP_ENDPOINT).replace(/\/+$/, '') }),
    },
    credentials: {
      userTokenLifetimeMs: Number(values.USER_TOKEN_LIFETIME_DAYS) * 24 * 3600 * 1000,
      operatorKeyGraceMs: Number(values.OPERATOR_KEY_GRACE_HOURS) * 3600 * 1000,
    },
    userPerMinute: Number(values.USER_PER_MINUTE),
    adminPerMinute: Number(values.ADMIN_PER_MINUTE),
    refusedTokensPerMinute: Number(values.REFUSED_TOKENS_PER_MINUTE),
    shutdownGraceMs: Number(values.SHUTDOWN_GRACE_SECONDS) * 1000,
    ...(values.HEALTH_PORT === undefined ? {} : { healthPort: Number(values.HEALTH_PORT) }),
  };
}

/** DEMO_QUESTIONS as a list (unset: none), or undefined when it is not a JSON array of at most 10 non-empty strings. */
function readDemoQuestions(raw: Values['DEMO_QUESTIONS']): string[] | undefined {
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(raw));
  } catch {
    return undefined;
  }
  const valid =
    Array.isArray(parsed) &&
    parsed.length <= 10 &&
    parsed.every((question) => typeof question === 'string' && question.trim() !== '');
  return valid ? (parsed as string[]) : undefined;
}

const embeddingsProvider = (values: Values) => values.EMBEDDINGS_PROVIDER as EmbeddingsConfig['provider'];

/**
 * Each model spreads similarities differently, so each has its own floors. The local model's were
 * chosen on the evaluation set's tuning questions (`npm run eval:tune`, docs/answering.md); the
 * hashed n-grams score unrelated texts lower than a real model does and cannot tell a paraphrase,
 * so with them a source must always share a third of the question's words.
 */
const similarityDefaults: Record<EmbeddingsConfig['provider'], { search: number }> = {
  local: { search: 0.2 },
  hashed: { search: 0.2 },
  openai: { search: 0.25 },
};
const evidenceDefaults: Record<EmbeddingsConfig['provider'], Config['answerEvidence']> = {
  local: { minSimilarity: 0.2, minCoverage: 0.2, confidentSimilarity: 0.45, minSentenceSimilarity: 0.475 },
  hashed: { minSimilarity: 0.15, minCoverage: 1 / 3, confidentSimilarity: 2, minSentenceSimilarity: 0.3 },
  openai: { minSimilarity: 0.35, minCoverage: 1 / 3, confidentSimilarity: 2, minSentenceSimilarity: 0.3 },
};

function embeddingsConfig(values: Values): EmbeddingsConfig {
  const dimensions = values.EMBEDDINGS_DIMENSIONS === undefined ? undefined : Number(values.EMBEDDINGS_DIMENSIONS);
  if (values.EMBEDDINGS_PROVIDER === 'local') {
    return values.EMBEDDINGS_MODEL_DIR === undefined
      ? { provider: 'local' }
      : { provider: 'local', modelDir: String(values.EMBEDDINGS_MODEL_DIR) };
  }
  if (values.EMBEDDINGS_PROVIDER === 'hashed') return { provider: 'hashed', dimensions: dimensions ?? 512 };
  return {
    provider: 'openai',
    baseUrl: String(values.EMBEDDINGS_BASE_URL).replace(/\/+$/, ''),
    model: String(values.EMBEDDINGS_MODEL),
    apiKey: String(values.EMBEDDINGS_API_KEY),
    // text-embedding-3-small's own size; a size set explicitly is asked of the model.
    dimensions: dimensions ?? 1536,
    sendDimensions: dimensions !== undefined,
    batchSize: Number(values.EMBEDDINGS_BATCH_SIZE),
  };
}

/** The variables that are set (empty counts as unset), with defaults filled in for the rest. */
function readValues(env: Env): Values {
  const values: Record<string, string | number | undefined> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const raw = env[name];
    values[name] = raw === undefined || raw === '' ? spec.default : raw;
  }
  return values as Values;
}

/** Runs the schema (which coerces numbers in place) and turns each failure into one sentence. */
function describeProblems(values: Values, env: Env): string[] {
  if (validate(values)) return [];
  return (validate.errors ?? []).map((error) => {
    const name = error.instancePath.slice(1);
    const spec = specs[name];
    const shown = spec?.secret ? '' : ` (got ${JSON.stringify(env[name])})`;
    return `${name} ${error.message}${shown}: ${spec?.description ?? ''}`;
  });
}

/** A setting the caller's role cannot run without; loadConfig guarantees it for the roles that use it. */
export function requireSetting<T>(value: T | undefined, variable: VariableName): T {
  if (value === undefined) throw new ConfigError([`${variable} is not set`]);
  return value;
}
