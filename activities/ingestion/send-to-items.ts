import { heartbeat } from '@temporalio/activity';
import pLimit from 'p-limit';

/** Signals sent at once when asking item workflows to act. */
const signalConcurrency = 16;

/** Hands each item to `send` (an ingestion-client call that signals the item's workflow), a few at a time, heartbeating the count sent. */
export async function sendToItems<T>(items: T[], send: (item: T) => Promise<void>): Promise<void> {
  const limit = pLimit(signalConcurrency);
  let sent = 0;
  await Promise.all(
    items.map((item) =>
      limit(async () => {
        await send(item);
        heartbeat({ sent: ++sent });
      }),
    ),
  );
}
