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

/**
 * What an open inbox page does for its agent besides showing the list: it keeps them present (their
 * availability counts only while a page of theirs is open), offers them, while they are available
 * and have room, the oldest waiting conversations of their teams that nobody has (so a queue drains as
 * agents free up, with no timer per conversation), and passes the tenant's assignment nudges on: the
 * list is read again at once, and an `assigned` event tells the agent a conversation was given to them.
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

  const listening = await deps.inboxChanges.listen(deps.liveChannels, user.tenantId, (change) => {
    options.refresh();
    if (change?.assigneeId === user.id) stream.send('assigned', { conversationId: change.conversationId });
  });
  stream.onEnd(() => void listening.stop());
  await round();
}
