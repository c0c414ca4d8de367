import type { AgentAvailability } from '#conversations/availability.js';
import type { InboxChanges } from '#conversations/inbox-changes.js';
import type { InboxPlacement } from '#conversations/inbox-offers.js';
import type { LiveChannels } from '#conversations/live-channels.js';
import type { ConversationClient } from '#conversations/workflow-client.js';
import type { EventStream } from '#api/server-sent-events.js';

export interface InboxPresenceDeps {
  availability: Pick<AgentAvailability, 'present' | 'chosen'>;
  placement: Pick<InboxPlacement, 'offersFor'>;
  conversations: Pick<ConversationClient, 'nudgeAssignment'>;
  inboxChanges: Pick<InboxChanges, 'listen'>;
  liveChannels: LiveChannels;
}

/** How often an open inbox page shows its agent present and asks for waiting conversations for them. */
export const presenceIntervalMs = 15_000;

/** How long a page waits after a change before it reads its list again, taking in the changes that follow. */
const refreshDelayMs = 250;

/**
 * What an open inbox page does for its agent besides showing the list: it keeps them present (their
 * availability counts only while a page of theirs is open), offers them, while they are available
 * and have room, the oldest waiting conversations of their teams that nobody has (so a queue drains as
 * agents free up, with no timer per conversation), and passes the tenant's assignment nudges on: the
 * list is read again soon (once for a burst), and an `assigned` event tells the agent at once that a
 * conversation was given to them.
 * Everything stops when the stream ends; a failure is told to `onError` and the next round tries again.
 */
export async function keepInboxPresence(
  stream: EventStream,
  user: { tenantId: string; id: string },
  deps: InboxPresenceDeps,
  options: { refresh(): void; onError(error: unknown): void; intervalMs?: number },
): Promise<void> {
  const round = async () => {
    if (stream.ended) return;
    try {
      await deps.availability.present(user.tenantId, user.id);
      if ((await deps.availability.chosen(user.tenantId, user.id)) !== 'available') return;
      for (const conversation of await deps.placement.offersFor(user.tenantId, user.id))
        await deps.conversations.nudgeAssignment(conversation, { kind: 'offer', agentId: user.id });
    } catch (error) {
      options.onError(error);
    }
  };
  const timer = setInterval(() => void round(), options.intervalMs ?? presenceIntervalMs);
  stream.onEnd(() => clearInterval(timer));

  // A burst of changes (a queue being drained) is one read of the list, not one per change.
  let pending: NodeJS.Timeout | undefined;
  const refreshSoon = () => {
    pending ??= setTimeout(() => {
      pending = undefined;
      options.refresh();
    }, refreshDelayMs);
  };
  stream.onEnd(() => clearTimeout(pending));
  const listening = await deps.inboxChanges.listen(deps.liveChannels, user.tenantId, (change) => {
    refreshSoon();
    if (change?.assigneeId === user.id) stream.send('assigned', { conversationId: change.conversationId });
  });
  stream.onEnd(() => void listening.stop());
  await round();
}
