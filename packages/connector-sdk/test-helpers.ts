import { createIngestionClient, type IngestionClientOptions } from './ingestion-client.js';
import { ingestionFallback, startTestServer, type TestServer } from './test-server.js';
import type { IngestionItem } from './types.js';

/** Test helper only: a client against a fresh local server, with a sleep that records delays and returns at once. */
export async function setup(overrides: Partial<IngestionClientOptions> = {}) {
  const server: TestServer = await startTestServer(ingestionFallback);
  const sleeps: number[] = [];
  const client = createIngestionClient({
    baseUrl: `${server.baseUrl}/`,
    apiKey: 'key-123',
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0,
    ...overrides,
  });
  return { server, client, sleeps };
}

export function makeItem(externalId: string, overrides: Partial<IngestionItem> = {}): IngestionItem {
  return {
    integrationId: 'shop',
    sourceType: 'PRODUCT',
    externalId,
    data: { title: `Title ${externalId}`, content: `Content of ${externalId}` },
    ...overrides,
  };
}

export function makeItems(count: number): IngestionItem[] {
  return Array.from({ length: count }, (_, index) => makeItem(`p${index}`));
}
