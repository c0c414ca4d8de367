/**
 * A small typed client of the API, for the CLI and the local scripts: the `/admin` routes with the
 * admin token, and (for the local scripts) the routes an API key or a user token opens. It speaks
 * HTTP only: whatever it can do, an operator of the service can do with curl.
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

export interface ApiClient {
  /** `body` is sent as JSON, or as it is when it is a `FormData` (multipart, its files streamed as they are sent). */
  request<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
}

export type AdminClient = ApiClient;

export function createAdminClient(options: { baseUrl: string; adminToken: string }): AdminClient {
  return createApiClient({ baseUrl: options.baseUrl, headers: { authorization: `Bearer ${options.adminToken}` } });
}

/** Every request carries `headers` (`x-api-key`, or a user's `authorization`); an error answer throws `AdminApiError`. */
export function createApiClient(options: { baseUrl: string; headers: Record<string, string> }): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  return {
    async request(method, path, body) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          ...options.headers,
          // A FormData's content type (multipart, with its boundary) is fetch's to set.
          ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : body instanceof FormData ? multipart(body) : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const parsed = text ? JSON.parse(text) : undefined;
      if (!response.ok) throw new AdminApiError(response.status, parsed);
      return parsed;
    },
  };
}

/**
 * A multipart body, sent as its files are read. Following a redirect would have fetch keep a copy of
 * every byte sent, to send it again: the API never redirects, so a redirect is an error instead.
 */
function multipart(body: FormData): RequestInit {
  return { body, redirect: 'error' };
}
