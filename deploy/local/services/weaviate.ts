import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureGoTool } from '../go-tools.js';
import { httpOk, ManagedProcess, waitUntil } from '../processes.js';
import type { RunningService, StackPaths } from './service.js';

export interface WeaviatePorts {
  http: number;
  grpc: number;
  /** Memberlist gossip; data is gossip + 1. */
  gossip: number;
  /** Raft; its internal RPC is raft + 1. */
  raft: number;
}

/**
 * A single-node Weaviate on loopback: no vectorizer modules (the service brings its own vectors),
 * anonymous access, telemetry and the profiling listener off, persistence in the data folder.
 */
export async function startWeaviate(ports: WeaviatePorts, paths: StackPaths): Promise<RunningService> {
  const binary = await ensureGoTool('weaviate');
  const dir = join(paths.data, 'weaviate');
  mkdirSync(dir, { recursive: true });
  const logFile = join(paths.logs, 'weaviate.log');
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PERSISTENCE_DATA_PATH: dir,
    DEFAULT_VECTORIZER_MODULE: 'none',
    ENABLE_MODULES: '',
    AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED: 'true',
    DISABLE_TELEMETRY: 'true',
    GO_PROFILING_DISABLE: 'true',
    PROMETHEUS_MONITORING_ENABLED: 'false',
    GRPC_PORT: String(ports.grpc),
    CLUSTER_HOSTNAME: 'node1',
    CLUSTER_BIND_ADDR: '127.0.0.1',
    CLUSTER_ADVERTISE_ADDR: '127.0.0.1',
    CLUSTER_GOSSIP_BIND_PORT: String(ports.gossip),
    CLUSTER_DATA_BIND_PORT: String(ports.gossip + 1),
    RAFT_PORT: String(ports.raft),
    RAFT_INTERNAL_RPC_PORT: String(ports.raft + 1),
    RAFT_BOOTSTRAP_EXPECT: '1',
    QUERY_DEFAULTS_LIMIT: '25',
    LOG_LEVEL: 'warning',
  };
  const process_ = new ManagedProcess(
    {
      name: 'weaviate',
      command: binary,
      args: ['--host', '127.0.0.1', '--port', String(ports.http), '--scheme', 'http'],
      env,
      output: { file: logFile },
    },
    paths.run,
  );
  const url = `http://127.0.0.1:${ports.http}`;
  await waitUntil('Weaviate', () => httpOk(`${url}/v1/.well-known/ready`), { timeoutMs: 120_000, process: process_, logFile });
  return { name: 'weaviate', url, process: process_, note: `gRPC on ${ports.grpc}` };
}
