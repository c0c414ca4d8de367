import { createHmac, timingSafeEqual } from 'node:crypto';
import { readBody, startHttpFake } from './http-fake.js';

/** One POST the receiver took in, whatever it answered. */
export interface ReceivedDelivery {
  /** The path the delivery was POSTed to (endpoints of one receiver differ by it). */
  path: string;
  headers: Record<string, string>;
  /** The raw body, as the signature covers it. */
  body: string;
  status: number;
}

/**
 * A tenant's endpoint for outbound events, as a receiver would write it: it reads the raw body,
 * keeps every request, and answers 204, or what `answerWith` says for the requests to come (a
 * receiver down, then back). `verify` checks a delivery the way docs/outbound-events.md tells
 * receivers to, with Node's crypto only (none of the service's code).
 */
export async function startFakeEventReceiver() {
  const received: ReceivedDelivery[] = [];
  let answer: (index: number) => number = () => 204;
  const fake = await startHttpFake((request, response) => {
    void readBody(request).then((body) => {
      const status = request.method === 'POST' ? answer(received.length) : 405;
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      received.push({ path: request.url ?? '/', headers, body, status });
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(status < 300 ? '' : JSON.stringify({ error: 'receiver unavailable' }));
    });
  });
  return {
    url: fake.url,
    received,
    /** Every request the receiver answered 2xx, parsed, in the order they arrived. */
    delivered: () => received.filter((delivery) => delivery.status < 300).map((delivery) => JSON.parse(delivery.body)),
    /** The status of the request numbered `index` (0 for the first ever received). */
    answerWith(status: (index: number) => number) {
      answer = status;
    },
    close: fake.close,
  };
}

export type FakeEventReceiver = Awaited<ReturnType<typeof startFakeEventReceiver>>;

/** The receiver's check: a signature of `<timestamp>.<body>` with the secret, within 5 minutes. */
export function verifyDelivery(
  delivery: Pick<ReceivedDelivery, 'headers' | 'body'>,
  secret: string,
  nowSeconds = Date.now() / 1000,
) {
  const timestamp = Number(delivery.headers['x-event-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > 300) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${delivery.body}`).digest('hex')}`);
  const given = Buffer.from(delivery.headers['x-signature-256'] ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
