import { createParser } from 'eventsource-parser';
import { eventually } from './eventually.js';

/**
 * An agent's open inbox page, as far as the API sees one: its event stream (`GET /agent/events`) held
 * open, which keeps the agent present and available. Resolves once the first list arrived (the page's
 * first round ran); `events` are those received so far; `close` ends the stream.
 */
export async function openInboxPage(baseUrl: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/agent/events`, { headers, signal: controller.signal });
  const events: Array<{ event: string; data: any }> = [];
  const parser = createParser({
    onEvent: (message) => events.push({ event: message.event ?? 'message', data: JSON.parse(message.data) }),
  });
  void (async () => {
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  })();
  await eventually(
    async () => events,
    (all) => all.some((event) => event.event === 'inbox'),
  );
  return { events, close: () => controller.abort() };
}
