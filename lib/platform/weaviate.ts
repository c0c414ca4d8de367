import weaviate, { ApiKey, type WeaviateClient } from 'weaviate-client';

export type { WeaviateClient };

/**
 * The one Weaviate client of a process. No start-up checks: the client is usable (and reports
 * itself unready) while Weaviate is down, and works again as soon as Weaviate answers.
 */
export function createWeaviateClient(options: {
  url: string;
  grpcPort: number;
  /** The gRPC port's host when it is not the REST address's. */
  grpcHost?: string;
  apiKey?: string;
}): Promise<WeaviateClient> {
  const url = new URL(options.url);
  const secure = url.protocol === 'https:';
  return weaviate.connectToCustom({
    httpHost: url.hostname,
    httpPort: Number(url.port || (secure ? 443 : 80)),
    httpSecure: secure,
    ...(url.pathname !== '/' ? { httpPath: url.pathname.replace(/\/+$/, '') } : {}),
    grpcHost: options.grpcHost ?? url.hostname,
    grpcPort: options.grpcPort,
    grpcSecure: secure,
    ...(options.apiKey ? { authCredentials: new ApiKey(options.apiKey) } : {}),
    timeout: { init: 2, query: 30, insert: 60 },
    skipInitChecks: true,
  });
}
