import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { status } from '@grpc/grpc-js';
import { Connection, isGrpcServiceError } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { searchAttributeKeys } from '#workflows/search-attributes.js';
import { ensureGoTool, goModuleDir, goTools } from '../go-tools.js';
import { ManagedProcess, waitUntil } from '../processes.js';
import type { RunningService, StackPaths } from './service.js';
import { registerSearchAttributes, type TemporalDevPorts } from './temporal-dev.js';
import { temporalDynamicConfig } from './temporal-tuning.js';

/**
 * The machine's PostgreSQL (trust auth). The database names are fixed, so one production-profile
 * stack per machine: a second one would join the first one's cluster.
 */
const postgres = { host: '127.0.0.1', port: 5432, user: 'postgres' };
const databases = { default: 'kb_temporal', visibility: 'kb_temporal_visibility' };

/** Fixed when the cluster is first created: the server refuses to start if it later differs. */
const numHistoryShards = 4;
const retention = '3 days';

/**
 * The real Temporal server (frontend, history, matching and worker in one process) on PostgreSQL
 * with several history shards: the production topology on one machine. Its databases are created
 * and migrated on every start, which is a no-op once they are current, so data survives restarts.
 */
export async function startTemporalServer(
  ports: TemporalDevPorts,
  namespace: string,
  paths: StackPaths,
): Promise<RunningService> {
  const server = await ensureGoTool('temporal-server');
  const sqlTool = await ensureGoTool('temporal-sql-tool');
  const schemas = join(
    await goModuleDir('go.temporal.io/server', goTools['temporal-server'].version),
    'schema',
    'postgresql',
    'v12',
  );
  await migrateDatabase(sqlTool, databases.default, join(schemas, 'temporal', 'versioned'));
  await migrateDatabase(sqlTool, databases.visibility, join(schemas, 'visibility', 'versioned'));

  const root = join(paths.data, 'temporal-server');
  writeServerConfig(join(root, 'config'), ports);
  const logFile = join(paths.logs, 'temporal-server.log');
  const process_ = new ManagedProcess(
    {
      name: 'temporal-server',
      command: server,
      // --config is joined to --root by the server; it loads <config>/<env>.yaml.
      args: ['--root', root, '--config', 'config', '--env', 'development', '--allow-no-auth', 'start'],
      output: { file: logFile },
    },
    paths.run,
  );

  const address = `127.0.0.1:${ports.frontend}`;
  const wait = { process: process_, logFile };
  await waitUntil('Temporal server', () => ensureNamespace(address, namespace), { timeoutMs: 120_000, ...wait });
  // The other services learn of a new namespace, and of its new attributes, only when they refresh
  // their namespace caches (every 2 s): until then, starting a workflow that sets them fails.
  await waitUntil('Temporal search attributes', () => registerSearchAttributes(address, namespace), {
    timeoutMs: 60_000,
    ...wait,
  });
  await waitUntil('Temporal namespace caches', () => searchAttributesQueryable(address, namespace), {
    timeoutMs: 30_000,
    ...wait,
  });
  return {
    name: 'temporal',
    url: address,
    process: process_,
    // ports.ui stays unused: the Web UI is a separate server that only the container deployment runs.
    note: `Temporal server on PostgreSQL, ${numHistoryShards} history shards; no Web UI in this profile`,
  };
}

/**
 * Creates the database and brings its schema to the newest version shipped with the server. Each
 * step is idempotent in this tool: create-database ignores an existing database, setup-schema
 * skips a schema already past 0.0, and update-schema applies only the missing versions.
 */
async function migrateDatabase(sqlTool: string, database: string, versionedDir: string): Promise<void> {
  const connect = [
    '--plugin',
    'postgres12',
    '--ep',
    postgres.host,
    '-p',
    String(postgres.port),
    '-u',
    postgres.user,
    '--db',
    database,
  ];
  await runSqlTool(sqlTool, [...connect, 'create-database'], /already exists/);
  await runSqlTool(sqlTool, [...connect, 'setup-schema', '-v', '0.0']);
  await runSqlTool(sqlTool, [...connect, 'update-schema', '-d', versionedDir]);
}

async function runSqlTool(sqlTool: string, args: string[], tolerated?: RegExp): Promise<void> {
  try {
    await promisify(execFile)(sqlTool, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const output = `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}`;
    if (tolerated?.test(output)) return;
    const tail = output.trimEnd().split('\n').slice(-20).join('\n');
    throw new Error(`temporal-sql-tool ${args.join(' ')} failed: ${(error as Error).message}\n${tail}`);
  }
}

/** True once the frontend answers and knows the namespace; registers it (the server creates none). */
async function ensureNamespace(address: string, namespace: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 1_000 });
  try {
    if (!(await namespaceExists(connection, namespace))) {
      await connection.workflowService
        .registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(retention) })
        .catch((error: unknown) => {
          // Another start registered it between the two calls.
          if (!(isGrpcServiceError(error) && error.code === status.ALREADY_EXISTS)) throw error;
        });
    }
    return await namespaceExists(connection, namespace);
  } finally {
    await connection.close();
  }
}

async function namespaceExists(connection: Connection, namespace: string): Promise<boolean> {
  try {
    await connection.workflowService.describeNamespace({ namespace });
    return true;
  } catch (error) {
    if (isGrpcServiceError(error) && error.code === status.NOT_FOUND) return false;
    throw error;
  }
}

/** True once the frontend accepts a visibility query on every custom attribute. */
async function searchAttributesQueryable(address: string, namespace: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 1_000 });
  try {
    const query = searchAttributeKeys.map((key) => `${key.name} IS NOT NULL`).join(' OR ');
    await connection.workflowService.countWorkflowExecutions({ namespace, query });
    return true;
  } finally {
    await connection.close();
  }
}

/**
 * The shape of the module's own config/development-postgres12.yaml, on loopback. Temporal's
 * customary port layout around the frontend (history +1, matching +2, worker +6, membership 300
 * below each), so the default 7233 gives the ports operators know. Written as JSON, which is YAML.
 */
function writeServerConfig(dir: string, ports: TemporalDevPorts): void {
  const service = (grpcPort: number, httpPort?: number) => ({
    rpc: { grpcPort, membershipPort: grpcPort - 300, bindOnLocalHost: true, ...(httpPort ? { httpPort } : {}) },
  });
  const datastore = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `${postgres.host}:${postgres.port}`,
      connectProtocol: 'tcp',
      user: postgres.user,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const config = {
    log: { stdout: true, level: 'warn', format: 'json' },
    persistence: {
      numHistoryShards,
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      datastores: {
        'postgres-default': datastore(databases.default, 20),
        'postgres-visibility': datastore(databases.visibility, 10),
      },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' } },
    services: {
      frontend: service(ports.frontend, ports.http),
      history: service(ports.frontend + 1),
      matching: service(ports.frontend + 2),
      worker: service(ports.frontend + 6),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: {
          enabled: true,
          initialFailoverVersion: 1,
          rpcName: 'frontend',
          rpcAddress: `127.0.0.1:${ports.frontend}`,
          httpAddress: `127.0.0.1:${ports.http}`,
        },
      },
    },
    dynamicConfigClient: { filepath: join(dir, 'dynamicconfig.yaml'), pollInterval: '10s' },
    dcRedirectionPolicy: { policy: 'noop' },
    archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } },
    namespaceDefaults: { archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } } },
  };
  mkdirSync(dir, { recursive: true });
  const dynamicConfig = Object.fromEntries(Object.entries(temporalDynamicConfig).map(([key, value]) => [key, [{ value }]]));
  writeFileSync(join(dir, 'dynamicconfig.yaml'), `${JSON.stringify(dynamicConfig, null, 2)}\n`);
  writeFileSync(
    join(dir, 'development.yaml'),
    `# Written by deploy/local/services/temporal-server.ts at every start.\n${JSON.stringify(config, null, 2)}\n`,
  );
}
