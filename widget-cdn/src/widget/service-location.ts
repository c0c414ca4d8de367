import { ApiError, isAbort } from './chat-api.js';

/**
 * Where the chat API is: the `apiUrl` option when given, else what the widget's own file server
 * publishes in `/service.json` beside its releases, so an embed snippet needs no address at all.
 */
export async function locateChatApi(
  apiUrl: string | undefined,
  widgetUrl: string,
  fetch: typeof window.fetch,
  signal: AbortSignal,
): Promise<string> {
  if (apiUrl) return apiUrl;
  const serviceUrl = new URL('/service.json', widgetUrl).href;
  try {
    const response = await fetch(serviceUrl, { signal, credentials: 'omit' });
    const found = response.ok ? ((await response.json()) as { apiUrl?: unknown }).apiUrl : undefined;
    if (typeof found === 'string' && found) return found.replace(/\/+$/, '');
  } catch (error) {
    if (isAbort(error)) throw error;
  }
  throw new ApiError(
    0,
    'service_not_found',
    `the chat service's address could not be read from ${serviceUrl}; pass the apiUrl option to init instead.`,
  );
}
