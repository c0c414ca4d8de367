/**
 * Every environment variable the service reads, with its default and meaning: the one table that
 * `loadConfig`, the README and the deployment checks rely on. Defaults are those of the contract.
 */
export type ProcessRole = 'api' | 'worker' | 'cdn';

export interface VariableSpec {
  /** JSON Schema of the value after type coercion. */
  schema: Record<string, unknown>;
  default?: string | number;
  description: string;
  /** Processes that read it: the deployment check makes sure each container sets it. */
  usedBy: ReadonlyArray<ProcessRole>;
  /** No default applies when NODE_ENV is production: the deployment must set it. */
  requiredInProduction?: boolean;
  secret?: boolean;
}

const port = { type: 'integer', minimum: 0, maximum: 65535 };
const url = { type: 'string', format: 'uri', pattern: '^https?://' };

export const variables = {
  NODE_ENV: {
    schema: { enum: ['development', 'test', 'production'] },
    default: 'development',
    description: 'development, test or production; production requires every secret to be set explicitly',
    usedBy: ['api', 'worker', 'cdn'],
  },
  HOST: {
    schema: { type: 'string', minLength: 1 },
    default: '127.0.0.1',
    description: "interface the REST API, the widget files and the worker's health listener listen on",
    usedBy: ['api', 'worker', 'cdn'],
  },
  PORT: {
    schema: port,
    default: 3000,
    description: 'port of the REST API and public routes (0 picks a free port)',
    usedBy: ['api', 'cdn'],
  },
  CDN_PORT: {
    schema: port,
    default: 3001,
    description: 'port of the widget files ({cdn_url})',
    usedBy: ['cdn'],
  },
  PUBLIC_BASE_URL: {
    schema: url,
    description:
      'public address of the REST API ({base_url}); defaults to http://HOST:PORT. The widget file server tells the widget about it (`{cdn_url}/service.json`)',
    usedBy: ['api', 'cdn'],
    requiredInProduction: true,
  },
  DEMO_QUESTIONS: {
    schema: { type: 'string' },
    description:
      'questions the demo page (`{cdn_url}/demo`, served outside production) suggests asking, as a JSON array of at most 10 strings; `npm start` sets it to those its demo help centre answers',
    usedBy: ['cdn'],
  },
  TRUSTED_PROXY_HOPS: {
    schema: { type: 'integer', minimum: 0, maximum: 10 },
    default: 0,
    description:
      "how many proxies in front of the API each append the address they were called from to X-Forwarded-For (the shipped compose file: 1, its Caddy); the client address, which per-address rate limits count, is the entry that many hops from the right. 0 reads no header: the socket's address",
    usedBy: ['api'],
  },
  HELP_CENTER_ARTICLE_URL: {
    schema: { type: 'string', pattern: '^https?://.*\\{slug\\}' },
    description:
      'address of an article in the help centre, cited by the AI: {knowledgeBaseId} and {slug} are filled in; defaults to PUBLIC_BASE_URL/help/{knowledgeBaseId}/{slug}',
    usedBy: ['api'],
  },
  TEMPORAL_ADDRESS: {
    schema: { type: 'string', pattern: '^[^:/\\s]+:\\d+$' },
    default: '127.0.0.1:7233',
    description: 'Temporal frontend as host:port',
    usedBy: ['api', 'worker'],
  },
  TEMPORAL_NAMESPACE: {
    schema: { type: 'string', minLength: 1 },
    default: 'default',
    description: 'Temporal namespace of every workflow',
    usedBy: ['api', 'worker'],
  },
  TEMPORAL_TASK_QUEUE: {
    schema: { type: 'string', pattern: '^[A-Za-z0-9._-]+$' },
    default: 'kb-assistant',
    description: 'base name of the Temporal task queues',
    usedBy: ['api', 'worker'],
  },
  WEAVIATE_URL: {
    schema: url,
    default: 'http://127.0.0.1:8080',
    description: 'Weaviate REST address',
    usedBy: ['api', 'worker'],
  },
  WEAVIATE_GRPC_PORT: {
    schema: port,
    default: 50051,
    description: 'Weaviate gRPC port, on the host of WEAVIATE_URL (or WEAVIATE_GRPC_HOST)',
    usedBy: ['api', 'worker'],
  },
  WEAVIATE_GRPC_HOST: {
    schema: { type: 'string', pattern: '^[A-Za-z0-9.-]+$' },
    description:
      "host of Weaviate's gRPC port, when it is not the host of WEAVIATE_URL (Weaviate's Helm chart serves gRPC from a Service of its own, weaviate-grpc)",
    usedBy: ['api', 'worker'],
  },
  WEAVIATE_API_KEY: {
    schema: { type: 'string' },
    description: 'Weaviate API key, when the Weaviate server requires one',
    usedBy: ['api', 'worker'],
    secret: true,
  },
  REDIS_URL: {
    schema: { type: 'string', pattern: '^rediss?://' },
    default: 'redis://127.0.0.1:6379',
    description: 'Redis address',
    usedBy: ['api', 'worker'],
    secret: true,
  },
  REDIS_PREFIX: {
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+$' },
    default: 'kb',
    description: 'prefix of every Redis key this deployment writes',
    usedBy: ['api', 'worker'],
  },
  EMBEDDINGS_PROVIDER: {
    schema: { enum: ['local', 'hashed', 'openai'] },
    default: 'local',
    description:
      'local (all-MiniLM-L6-v2 in-process: a sentence model, English, no network), hashed (hashed n-grams: no model at all, matches words rather than meaning) or openai (any OpenAI-compatible /v1/embeddings)',
    usedBy: ['api', 'worker'],
  },
  EMBEDDINGS_MODEL_DIR: {
    schema: { type: 'string', minLength: 1 },
    description:
      "folder of the local model's files (checked against their pinned SHA-256 at start); by default ~/.cache/kb-assistant/models/all-MiniLM-L6-v2-int8, where npm start and npm test put it",
    usedBy: ['api', 'worker'],
  },
  EMBEDDINGS_BASE_URL: {
    schema: url,
    default: 'https://api.openai.com/v1',
    description: 'base URL of the OpenAI-compatible embeddings API (up to and including /v1)',
    usedBy: ['api', 'worker'],
  },
  EMBEDDINGS_MODEL: {
    schema: { type: 'string', minLength: 1 },
    default: 'text-embedding-3-small',
    description: 'embeddings model of the openai provider',
    usedBy: ['api', 'worker'],
  },
  EMBEDDINGS_API_KEY: {
    schema: { type: 'string', minLength: 1 },
    description: 'API key of the openai embeddings provider (required with it)',
    usedBy: ['api', 'worker'],
    secret: true,
  },
  EMBEDDINGS_DIMENSIONS: {
    schema: { type: 'integer', minimum: 8, maximum: 8192 },
    description:
      'vector size: 512 for hashed unless set; 1536 for openai unless set (a size set is asked of the model); the local model has its own (384), so not with local',
    usedBy: ['api', 'worker'],
  },
  EMBEDDINGS_BATCH_SIZE: {
    schema: { type: 'integer', minimum: 1, maximum: 2048 },
    default: 64,
    description: 'texts per embeddings request of the openai provider',
    usedBy: ['api', 'worker'],
  },
  SEARCH_MIN_SIMILARITY: {
    schema: { type: 'number', minimum: 0, maximum: 1 },
    description:
      'least cosine similarity for a passage to match by meaning alone (keyword matches always count); by default 0.2 for local, 0.2 for hashed, 0.25 for openai',
    usedBy: ['api'],
  },
  ANSWERS_PROVIDER: {
    schema: { enum: ['extractive', 'openai'] },
    default: 'extractive',
    description:
      'extractive (the most relevant sentences of the passages, no model, no network) or openai (any OpenAI-compatible /v1/chat/completions; falls back to extractive when it fails)',
    usedBy: ['worker'],
  },
  ANSWERS_BASE_URL: {
    schema: url,
    default: 'https://api.openai.com/v1',
    description: 'base URL of the OpenAI-compatible chat-completions API (up to and including /v1)',
    usedBy: ['worker'],
  },
  ANSWERS_MODEL: {
    schema: { type: 'string', minLength: 1 },
    default: 'gpt-4o-mini',
    description: 'chat model of the openai answers provider',
    usedBy: ['worker'],
  },
  ANSWERS_API_KEY: {
    schema: { type: 'string', minLength: 1 },
    description: 'API key of the openai answers provider (required with it)',
    usedBy: ['worker'],
    secret: true,
  },
  ANSWER_MIN_SIMILARITY: {
    schema: { type: 'number', minimum: 0, maximum: 1 },
    description:
      'least cosine similarity between the question and a passage for the AI to answer from it; below it, the AI says it does not know. By default 0.3 for local, 0.15 for hashed, 0.35 for openai embeddings',
    usedBy: ['worker'],
  },
  ANSWERS_MAX_TOKENS: {
    schema: { type: 'integer', minimum: 16, maximum: 16384 },
    default: 800,
    description:
      'most tokens the openai answers provider may write per answer (max_tokens): bounds the cost and length of each answer',
    usedBy: ['worker'],
  },
  CONVERSATION_AGENT_WAIT_SECONDS: {
    schema: { type: 'number', exclusiveMinimum: 0 },
    default: 120,
    description: 'seconds a customer waits for an agent before being told that a person will reply as soon as possible',
    usedBy: ['api'],
  },
  CONVERSATION_IDLE_MINUTES: {
    schema: { type: 'number', exclusiveMinimum: 0 },
    default: 30,
    description: 'minutes without a message after which a widget conversation is closed',
    usedBy: ['api'],
  },
  CHAT_VISITOR_PER_MINUTE: {
    schema: { type: 'integer', minimum: 1 },
    default: 30,
    description: 'requests each widget visitor (a conversation, or an address before it has one) may make per minute',
    usedBy: ['api'],
  },
  CHAT_OPERATOR_PER_MINUTE: {
    schema: { type: 'integer', minimum: 1 },
    default: 3000,
    description: "requests all visitors of one operator's widget may make per minute together",
    usedBy: ['api'],
  },
  CHAT_CONFIG_PER_MINUTE: {
    schema: { type: 'integer', minimum: 1 },
    default: 300,
    description:
      'widget starts (GET /chat/config) each client address (an IPv6 /64) may make per minute: every page view of the widget asks once, and many visitors can share an address',
    usedBy: ['api'],
  },
  CHAT_ADDRESS_PER_MINUTE: {
    schema: { type: 'integer', minimum: 1 },
    default: 300,
    description:
      "requests the visitors behind one client address (an IPv6 /64) may make per minute on the routes of their conversations with one operator's widget, spent before the operator's budget: ten visitors' worth, so an office or a mobile network's NAT fits",
    usedBy: ['api'],
  },
  CHAT_ANSWERS_PER_ADDRESS_PER_DAY: {
    schema: { type: 'integer', minimum: 1 },
    default: 200,
    description:
      "messages the AI answers per client address (an IPv6 /64), operator and UTC day: one address's share of OPERATOR_ANSWERS_PER_DAY (429 rate_limited past it)",
    usedBy: ['api'],
  },
  CHAT_ANSWERS_PER_CONVERSATION_PER_DAY: {
    schema: { type: 'integer', minimum: 1 },
    default: 50,
    description: "messages the AI answers per widget conversation and UTC day: one visitor's share of OPERATOR_ANSWERS_PER_DAY",
    usedBy: ['api'],
  },
  CHAT_CONVERSATIONS_PER_HOUR: {
    schema: { type: 'integer', minimum: 1 },
    default: 60,
    description: "conversations each client address (an IPv6 /64) may start per hour with one operator's widget",
    usedBy: ['api'],
  },
  CHAT_RATINGS_PER_VISITOR: {
    schema: { type: 'integer', minimum: 1 },
    default: 30,
    description:
      'ratings (answer feedback and satisfaction scores) each widget visitor (a conversation) may give per 10 minutes, on top of CHAT_VISITOR_PER_MINUTE',
    usedBy: ['api'],
  },
  CHAT_RATINGS_OPERATOR_PER_MINUTE: {
    schema: { type: 'integer', minimum: 1 },
    default: 1000,
    description: "ratings all visitors of one operator's widget may give per minute together, on top of CHAT_OPERATOR_PER_MINUTE",
    usedBy: ['api'],
  },
  OPERATOR_ANSWERS_PER_DAY: {
    schema: { type: 'integer', minimum: 1 },
    default: 5000,
    description:
      "messages the AI answers per operator and UTC day; past it, a widget visitor's message is answered 429 answer_budget_exhausted until midnight UTC, and a messaging customer is handed to a person",
    usedBy: ['api', 'worker'],
  },
  STREAM_MAX_LIFETIME_SECONDS: {
    schema: { type: 'number', exclusiveMinimum: 0 },
    default: 1800,
    description:
      'every event stream (chat and agent) ends after this long; clients reconnect, the widget with Last-Event-ID, and miss nothing',
    usedBy: ['api'],
  },
  STREAMS_PER_CONVERSATION: {
    schema: { type: 'integer', minimum: 1 },
    default: 10,
    description: 'open chat event streams per conversation at most; more are answered 429',
    usedBy: ['api'],
  },
  STREAMS_PER_ADDRESS: {
    schema: { type: 'integer', minimum: 1 },
    default: 100,
    description: 'open chat event streams per client address at most (API process); more are answered 429',
    usedBy: ['api'],
  },
  STREAMS_PER_USER: {
    schema: { type: 'integer', minimum: 1 },
    default: 20,
    description: 'open agent event streams per user at most (API process); more are answered 429',
    usedBy: ['api'],
  },
  STREAM_SLOW_READER_BYTES: {
    schema: { type: 'integer', minimum: 1024 },
    default: 1024 * 1024,
    description: 'an event stream whose client leaves more than this unread...',
    usedBy: ['api'],
  },
  STREAM_SLOW_READER_SECONDS: {
    schema: { type: 'number', minimum: 0 },
    default: 30,
    description: '...for longer than this is dropped',
    usedBy: ['api'],
  },
  STREAM_RECHECK_SECONDS: {
    schema: { type: 'number', exclusiveMinimum: 0 },
    default: 60,
    description: "how often an open agent event stream checks its user's token again; one that no longer authenticates ends",
    usedBy: ['api'],
  },
  CHAT_REPLY_TIMEOUT_SECONDS: {
    schema: { type: 'number', exclusiveMinimum: 0 },
    default: 60,
    description:
      'how long a message stream waits for the answer before ending with reply_delayed (the answer still arrives in the conversation)',
    usedBy: ['api'],
  },
  INGEST_CONCURRENCY: {
    schema: { type: 'integer', minimum: 1, maximum: 256 },
    default: 8,
    description: 'items each worker processes at once (of every priority: the most urgent are handed out first)',
    usedBy: ['worker'],
  },
  WORKER_ROLE: {
    schema: { enum: ['all', 'core', 'embedder'] },
    default: 'all',
    description:
      "what a worker does: all of it; core, all but the items' activities; embedder, the items' activities only (the embedding model's work, scaled apart; docs/scaling.md)",
    usedBy: ['worker'],
  },
  LOCAL_MODEL_SESSIONS: {
    schema: { type: 'integer', minimum: 1, maximum: 64 },
    default: 1,
    description:
      'sessions of the local embedding model per process, each on a thread of its own (docs/embeddings.md: one answers a single text soonest; two embed more texts a second on two cores)',
    usedBy: ['api', 'worker'],
  },
  LOCAL_MODEL_THREADS: {
    schema: { type: 'integer', minimum: 1, maximum: 64 },
    default: 2,
    description: "onnxruntime threads of each local model session (intra-op); the machine's cores in all is the most that helps",
    usedBy: ['api', 'worker'],
  },
  CONNECTOR_CONCURRENCY: {
    schema: { type: 'integer', minimum: 1, maximum: 256 },
    default: 4,
    description:
      "connector activities (a page of a shop or site read and sent) each worker runs at once, on the connectors' own task queue: a slow or hostile source never holds the slots that answer visitors or ingest",
    usedBy: ['worker'],
  },
  CONNECTOR_MAX_PAGES_PER_RUN: {
    schema: { type: 'integer', minimum: 1 },
    default: 2000,
    description:
      "pages one sync of a connector may read (a CMS's posts and pages together); a source that claims more fails the run, with the reason on the connector's last sync",
    usedBy: ['worker'],
  },
  CONNECTORS_PER_TENANT: {
    schema: { type: 'integer', minimum: 1 },
    default: 20,
    description: 'connectors a tenant may have; creating one more is answered 409 connector_limit_reached',
    usedBy: ['api'],
  },
  GRAPH_API_BASE_URL: {
    schema: url,
    default: 'https://graph.facebook.com',
    description: "the messaging platform's API base (the API uploads agents' files to it, the worker sends)",
    usedBy: ['api', 'worker'],
  },
  CONNECTORS_API_URL: {
    schema: url,
    description:
      "the REST API as the worker's built-in connectors call it: they are clients of the public ingestion API; defaults to PUBLIC_BASE_URL, else http://HOST:PORT",
    usedBy: ['worker'],
  },
  OUTBOUND_ALLOW_PRIVATE_NETWORKS: {
    schema: { enum: ['true', 'false'] },
    default: 'false',
    description:
      "true lets the worker's connectors, and the API fetching an agent's image or document, reach loopback, private and other non-public addresses (local fakes, a site on the developer's machine); refused when NODE_ENV is production",
    usedBy: ['api', 'worker'],
  },
  OUTBOUND_MAX_RESPONSE_BYTES: {
    schema: { type: 'integer', minimum: 65536 },
    default: 8 * 1024 * 1024,
    description:
      "largest answer the worker reads from a tenant's source (one page of a shop or site); a larger one fails that request. The messaging platform's answers have a cap of their own, 1 MiB",
    usedBy: ['worker'],
  },
  EVENT_DELIVERY_HORIZON_SECONDS: {
    schema: { type: 'number', minimum: 1, maximum: 7 * 86400 },
    default: 86400,
    description:
      'how long an outbound event is retried from its first attempt (docs/outbound-events.md); then it is recorded as given up and its endpoint disabled, with the last error as the reason',
    usedBy: ['api', 'worker'],
  },
  EVENT_DELIVERY_MAX_INTERVAL_SECONDS: {
    schema: { type: 'number', minimum: 1, maximum: 86400 },
    default: 600,
    description: 'the longest wait between two attempts of an outbound event (1 s doubling up to it, plus up to 20 % of jitter)',
    usedBy: ['api', 'worker'],
  },
  EVENT_DELIVERY_TIMEOUT_SECONDS: {
    schema: { type: 'number', minimum: 1, maximum: 60 },
    default: 10,
    description:
      "how long one delivery of an outbound event waits for the tenant's endpoint to answer; past it the attempt failed",
    usedBy: ['worker'],
  },
  SHUTDOWN_GRACE_SECONDS: {
    schema: { type: 'number', minimum: 0, maximum: 3600 },
    default: 30,
    description:
      "how long a process stopping (SIGTERM) lets work under way finish: the API its open requests (event streams are told to reconnect at once), the worker its running activities (then they are cancelled, and the worker gives up 10 s later; 0 cancels them at once); the orchestrator's kill deadline must be longer (docs/scaling.md)",
    usedBy: ['api', 'worker'],
  },
  HEALTH_PORT: {
    schema: port,
    description:
      "port of the worker's health listener (/live, /ready: 200 while it polls Temporal, 503 while it starts or drains), for an orchestrator's probes; unset: no listener. The API answers the same paths on PORT",
    usedBy: ['worker'],
  },
  ADMIN_TOKEN: {
    schema: { type: 'string', minLength: 24 },
    description: 'platform admin token; generated on first local start and kept in the data folder',
    usedBy: ['api'],
    requiredInProduction: true,
    secret: true,
  },
  SECRETS_KEY: {
    schema: { type: 'string', pattern: '^[A-Za-z0-9+/]{43}=$' },
    description: '32-byte key (base64) for AES-256-GCM encryption of stored credentials; generated on first local start',
    usedBy: ['api', 'worker'],
    requiredInProduction: true,
    secret: true,
  },
  SECRETS_PREVIOUS_KEYS: {
    schema: { type: 'string', pattern: '^[A-Za-z0-9+/]{43}=(?: *, *[A-Za-z0-9+/]{43}=)*$' },
    description:
      'earlier SECRETS_KEY values (comma-separated, each a 32-byte key in base64) during a key rotation: what they sealed still opens and is re-sealed with SECRETS_KEY when next read',
    usedBy: ['api', 'worker'],
    secret: true,
  },
  DATA_DIR: {
    schema: { type: 'string', minLength: 1 },
    default: '.data',
    description: 'local data folder: service data, logs and the generated local secrets',
    usedBy: [],
  },
  LOG_LEVEL: {
    schema: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
    default: 'info',
    description: 'least severe level written to the JSON log',
    usedBy: ['api', 'worker', 'cdn'],
  },
  METRICS_ENABLED: {
    schema: { enum: ['true', 'false'] },
    default: 'true',
    description:
      "true serves the Prometheus metrics (docs/operations.md) on ports of their own, never on the public port: the API on METRICS_PORT, each worker on WORKER_METRICS_PORT (its own) and TEMPORAL_METRICS_PORT (the Temporal SDK's); false serves none",
    usedBy: ['api', 'worker'],
  },
  METRICS_HOST: {
    schema: { type: 'string', minLength: 1 },
    default: '127.0.0.1',
    description:
      'interface the metrics endpoints listen on: this machine only by default; a container sets 0.0.0.0 for Prometheus on its network (the endpoints have no authentication: never publish them)',
    usedBy: ['api', 'worker'],
  },
  METRICS_PORT: {
    schema: port,
    default: 9464,
    description:
      "port of the API's GET /metrics (0 picks a free port, logged); a cluster of API processes serves them all together there",
    usedBy: ['api'],
  },
  WORKER_METRICS_PORT: {
    schema: port,
    default: 9465,
    description: "port of a worker's own GET /metrics (0 picks a free port, logged)",
    usedBy: ['worker'],
  },
  TEMPORAL_METRICS_PORT: {
    schema: port,
    default: 9466,
    description:
      "port of the Temporal SDK's metrics of a worker (its task slots, polls, latencies: GET /metrics, names starting temporal_)",
    usedBy: ['worker'],
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    schema: url,
    description:
      'OpenTelemetry collector (OTLP over HTTP, e.g. http://collector:4318): traces of requests, workflows, activities and their Redis and Weaviate calls go to its /v1/traces. Unset, nothing is traced',
    usedBy: ['api', 'worker'],
  },
  WORKFLOW_WAIT_SECONDS: {
    schema: { type: 'number', exclusiveMinimum: 0 },
    default: 15,
    description:
      "how long an agent's action (take over, reply, hand back, close) waits for its conversation's workflow; past it the answer is 202 (accepted, still being applied) or 503 `action_not_confirmed` (not taken up)",
    usedBy: ['api'],
  },
  CONTENT_GAPS_SETTLE_SECONDS: {
    schema: { type: 'number', exclusiveMinimum: 0, maximum: 3600 },
    default: 30,
    description:
      "how long an operator's content-gaps clustering waits after the last gap recorded (or cluster marked) before it clusters, so a burst is clustered once (docs/insights.md)",
    usedBy: ['api', 'worker'],
  },
  CLEANUP_WAIT_SECONDS: {
    schema: { type: 'number', exclusiveMinimum: 0 },
    default: 60,
    description:
      'how long `POST /ingest/cleanup` waits for the cleanup to finish (answering 200 with what it deleted); past it the answer is 202 with the cleanup to follow',
    usedBy: ['api'],
  },
  BODY_LIMIT_BYTES: {
    schema: { type: 'integer', minimum: 1024 },
    default: 5 * 1024 * 1024,
    description:
      'largest accepted body of the ingestion routes (the others have fixed, smaller limits); a larger one is answered 413',
    usedBy: ['api'],
  },
  USER_TOKEN_LIFETIME_DAYS: {
    schema: { type: 'number', exclusiveMinimum: 0 },
    default: 90,
    description:
      'days a tenant user token works after it is issued (created or rotated); then it is refused with 403 key_expired until an administrator rotates it',
    usedBy: ['api'],
  },
  OPERATOR_KEY_GRACE_HOURS: {
    schema: { type: 'number', minimum: 0 },
    default: 24,
    description:
      'hours an operator key keeps working after it was rotated, so the pages that embed it can be updated; 0 stops it at once',
    usedBy: ['api'],
  },
  RATE_LIMIT_PER_MINUTE: {
    schema: { type: 'integer', minimum: 1 },
    default: 600,
    description: 'requests each API key may make per minute; more are answered 429',
    usedBy: ['api'],
  },
  HELP_CENTRE_PAGES_PER_MINUTE: {
    schema: { type: 'integer', minimum: 1 },
    default: 300,
    description: 'hosted help-centre pages (/help) each client address may read per minute; more are answered 429',
    usedBy: ['api'],
  },
  HELP_CENTRE_FEEDBACK_PER_ADDRESS: {
    schema: { type: 'integer', minimum: 1 },
    default: 20,
    description: '"Was this article helpful?" votes each client address may cast on the hosted help centre per 10 minutes',
    usedBy: ['api'],
  },
  USER_PER_MINUTE: {
    schema: { type: 'integer', minimum: 1 },
    default: 300,
    description:
      'requests each tenant user (its token) may make per minute on /agent, /integrations and /connectors; more are answered 429',
    usedBy: ['api'],
  },
  ADMIN_PER_MINUTE: {
    schema: { type: 'integer', minimum: 1 },
    default: 600,
    description: 'requests each client address may make per minute on /admin; more are answered 429',
    usedBy: ['api'],
  },
  REFUSED_TOKENS_PER_MINUTE: {
    schema: { type: 'integer', minimum: 1 },
    default: 10,
    description:
      'refused admin or user tokens each client address may send per minute: past it, the address is answered 429 (even with a right token) until the minute ends, so tokens cannot be guessed faster',
    usedBy: ['api'],
  },
} satisfies Record<string, VariableSpec>;

export type VariableName = keyof typeof variables;
