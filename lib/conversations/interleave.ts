/**
 * The transcript with entries kept apart from it (agents' notes, assignments) among its messages in time
 * order, as agents read it. The transcript's own order stands (it is the order things happened): each
 * entry goes before the first message written after it.
 */
export function interleave<Message extends { createdAt: string }, Entry extends { createdAt: string }>(
  messages: Message[],
  entries: Entry[],
): Array<Message | Entry> {
  if (entries.length === 0) return messages;
  const pending = [...entries].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  const merged: Array<Message | Entry> = [];
  for (const message of messages) {
    const at = Date.parse(message.createdAt);
    while (pending.length > 0 && Date.parse(pending[0]!.createdAt) < at) merged.push(pending.shift()!);
    merged.push(message);
  }
  return [...merged, ...pending];
}
