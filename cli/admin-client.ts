/**
 * A small typed client of the `/admin` API, for the CLI and the local scripts. It speaks HTTP only:
 * whatever it can do, an operator of the service can do with curl.
 */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: { code?: string; message?: string; details?: { path?: string; message: string }[] } } | undefined,
  ) {
    super(body?.error?.message ?? `HTTP ${status}`);
    this.name = 'AdminApiError';
  }
}

export interface AdminClient {
  request<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
}

export function createAdminClient(options: { baseUrl: string; adminToken: string }): AdminClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  return {
    async request(method, path, body) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.adminToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const parsed = text ? JSON.parse(text) : undefined;
      if (!response.ok) throw new AdminApiError(response.status, parsed);
      return parsed;
    },
  };
}
