import { createParser } from 'eventsource-parser';

/** One server-sent event of the chat API: its name, its JSON data and, for durable events, its id. */
export interface ServerEvent {
  event: string;
  data: EventData;
  id?: string;
}

/** The fields of every event the chat API sends (each event uses some of them). */
export interface EventData {
  messageId?: unknown;
  replyTo?: unknown;
  delta?: unknown;
  message?: unknown;
  status?: unknown;
  agentName?: unknown;
  /** A `status` event of a closing: who closed it (`agent`, `idle`, `visitor`). */
  closedBy?: unknown;
  error?: { code?: unknown; message?: unknown };
}

/**
 * Reads a `text/event-stream` response to its end, calling `onEvent` for each event. `fetch` and not
 * EventSource, because the chat API wants its keys in headers. Events whose data is not JSON are
 * skipped; comment lines (keep-alives) are ignored. A failing `onEvent` is reported and the stream
 * goes on. Rejects when the connection breaks or the request's signal aborts.
 */
export async function readServerEvents(response: Response, onEvent: (event: ServerEvent) => void): Promise<void> {
  const parser = createParser({
    onEvent({ event, data, id }) {
      let parsed: EventData;
      try {
        parsed = JSON.parse(data) as EventData;
      } catch {
        return;
      }
      try {
        onEvent({ event: event ?? 'message', data: parsed ?? {}, id });
      } catch (error) {
        console.error('[widget]', error);
      }
    },
  });
  const reader = response.body?.getReader();
  if (!reader) return;
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    parser.feed(decoder.decode(value, { stream: true }));
  }
}
