import { randomUUID } from 'node:crypto';
import test from 'ava';
import { createChannelState } from '#messaging/channel-state.js';
import { createTenancy } from '#tenancy/index.js';
import { useTestRedis } from '#testing/redis.js';
import type { ConversationRef } from '#workflows/conversations/types.js';
import { createAssigner } from './assignment.js';
import { createAvailability } from './availability.js';
import { createEventPublisher } from './events.js';
import { createInbox } from './inbox.js';
import { createInboxPlacement } from './inbox-offers.js';
import { createConversationRecords } from './records.js';
import { createTranscript } from './transcript.js';

const testRedis = useTestRedis(test);

/** A tenant with agents (present and available unless told), one team of them, and the stores that assign. */
async function assigningTenant(names: string[], { capacity = 2, absent = [] as string[] } = {}) {
  const redis = testRedis.redis();
  const { prefix } = testRedis;
  const tenancy = createTenancy(redis, prefix);
  const records = createConversationRecords(redis, prefix);
  const transcript = createTranscript(redis, prefix);
  const availability = createAvailability(redis, prefix);
  const tenantId = randomUUID();
  const agents: Record<string, string> = {};
  for (const name of names) {
    const { user } = await tenancy.createUser(tenantId, { name, email: `${name}@shop.example`, role: 'agent' });
    agents[name] = user.id;
    if (!absent.includes(name)) await availability.present(tenantId, user.id);
  }
  const team = await tenancy.createTeam(tenantId, {
    name: 'Support',
    memberIds: Object.values(agents),
    assignment: { capacity },
  });
  await tenancy.setRouting(tenantId, { rules: [], defaultTeamId: team.id });
  const assigner = createAssigner({ redis, prefix, tenancy, records, availability, transcript });
  const channel = createChannelState(redis, prefix, createEventPublisher(redis, prefix));
  const inbox = createInbox({ redis, prefix, records, channel });
  const placement = createInboxPlacement({ redis, prefix, records, tenancy });

  /** A conversation handed off and routed, as the workflow's first assignment step does; the agent's name, or null. */
  async function handOff(): Promise<{ ref: ConversationRef; agent: string | null }> {
    const ref = {
      conversationId: randomUUID(),
      tenantId,
      operatorId: 'op',
      knowledgeBaseId: 'kb',
      channel: 'widget' as const,
      locale: 'en' as const,
    };
    await records.create({ ...ref, visitorTokenHash: 'hash', contact: {} });
    await records.setStatus(ref, 'waiting_for_agent', null);
    const result = await assigner.run(ref, { kind: 'route' }, 'visitor');
    return { ref, agent: result.agent?.name ?? null };
  }
  return { tenantId, team, agents, records, assigner, availability, inbox, placement, tenancy, handOff };
}

test('automatic assignment: least loaded first, in turn among equals, never past capacity', async (t) => {
  const { handOff, placement, agents, tenantId } = await assigningTenant(['Ada', 'Bob', 'Cy'], { capacity: 2 });
  const given = [];
  for (let i = 0; i < 7; i++) given.push((await handOff()).agent);
  t.deepEqual(given.slice(0, 6).sort(), ['Ada', 'Ada', 'Bob', 'Bob', 'Cy', 'Cy']);
  t.deepEqual(new Set(given.slice(0, 3)), new Set(['Ada', 'Bob', 'Cy']), 'each in turn before anyone gets a second');
  t.is(given[6], null, 'everyone at capacity: it waits in the queue');
  const loads = await placement.loads(tenantId, Object.values(agents));
  t.deepEqual([...loads.values()], [2, 2, 2]);
});

test('a step run again keeps what it decided; an agent who is away or whose page closed gets nothing', async (t) => {
  const { handOff, assigner, availability, tenantId, agents } = await assigningTenant(['Ada', 'Bob', 'Cy'], { absent: ['Cy'] });
  await availability.choose(tenantId, agents.Bob!, 'away');
  const { ref, agent } = await handOff();
  t.is(agent, 'Ada');
  const again = await assigner.run(ref, { kind: 'route' }, 'visitor');
  t.is(again.agent?.name, 'Ada', 'the same agent, not a second pick');
  t.is((await handOff()).agent, 'Ada', 'Bob is away and Cy has no page open');
  t.deepEqual(Object.fromEntries(await availability.of(tenantId, [agents.Ada!, agents.Bob!, agents.Cy!])), {
    [agents.Ada!]: 'available',
    [agents.Bob!]: 'away',
    [agents.Cy!]: 'offline',
  });
});

test('the next agent when one does not take it up, back to the queue when one leaves, and offers drain the queue', async (t) => {
  const { handOff, assigner, placement, records, tenantId, agents } = await assigningTenant(['Ada', 'Bob'], { capacity: 1 });
  const first = await handOff();
  const second = await handOff();
  t.deepEqual([first.agent, second.agent].sort(), ['Ada', 'Bob']);
  const third = await handOff();
  t.is(third.agent, null);
  t.deepEqual((await placement.offersFor(tenantId, agents.Ada!)).length, 0, 'Ada has no room');

  // Ada's conversation is closed: she has room, and the queue's oldest is offered to her.
  const adas = first.agent === 'Ada' ? first : second;
  const bobs = first.agent === 'Ada' ? second : first;
  await records.setStatus(adas.ref, 'closed', null, null, 'agent');
  t.deepEqual(
    (await placement.offersFor(tenantId, agents.Ada!)).map((r) => r.conversationId),
    [third.ref.conversationId],
  );
  t.is((await assigner.run(third.ref, { kind: 'offer', agentId: agents.Ada! }, null)).agent?.name, 'Ada');
  t.deepEqual(await placement.offersFor(tenantId, agents.Ada!), []);

  // Bob did not take his up in time: nobody else has room, so he keeps it; then he leaves: back to the queue.
  t.is((await assigner.run(bobs.ref, { kind: 'next', exclude: [], fallback: 'keep' }, null)).agent?.name, 'Bob');
  t.deepEqual(
    (await placement.waitingGivenTo(tenantId, agents.Bob!)).map((r) => r.conversationId),
    [bobs.ref.conversationId],
  );
  const left = await assigner.run(bobs.ref, { kind: 'next', exclude: [agents.Bob!], fallback: 'queue' }, null);
  t.is(left.agent, null);
  t.deepEqual(await placement.waitingGivenTo(tenantId, agents.Bob!), []);
});

test('the inbox lists by team, mine and unassigned from their indexes, as statuses and assignments change', async (t) => {
  const { handOff, records, inbox, tenantId, team, agents, assigner } = await assigningTenant(['Ada', 'Bob'], { capacity: 1 });
  const a = await handOff();
  const b = await handOff();
  const queued = await handOff();
  const ids = async (filter: Parameters<typeof inbox.list>[1]) =>
    (await inbox.list(tenantId, filter)).map((summary) => summary.conversationId).sort();
  const adas = a.agent === 'Ada' ? a : b;
  const mine = { assignee: 'mine' as const, userId: agents.Ada!, limit: 50 };

  t.deepEqual(await ids(mine), [adas.ref.conversationId]);
  t.deepEqual(await ids({ assignee: 'unassigned', limit: 50 }), [queued.ref.conversationId]);
  t.deepEqual(await ids({ teamId: team.id, limit: 50 }), [a, b, queued].map((c) => c.ref.conversationId).sort());
  t.deepEqual(await ids({ teamId: 'none', limit: 50 }), []);
  const [summary] = await inbox.list(tenantId, mine);
  t.like(summary, { teamId: team.id, assignee: { id: agents.Ada, name: 'Ada' } });

  // Ada takes it over (still hers), hands it back (nobody's, no longer in the inbox), the queued one is moved to no team.
  await records.setStatus(adas.ref, 'agent', 'Ada', agents.Ada!);
  t.deepEqual(await ids(mine), [adas.ref.conversationId]);
  await records.setStatus(adas.ref, 'ai', null);
  t.deepEqual(await ids(mine), []);
  t.deepEqual(await ids({ teamId: team.id, limit: 50 }), [b.ref.conversationId, queued.ref.conversationId].sort());
  await assigner.run(queued.ref, { kind: 'manual', agent: null, teamId: null, by: { agentId: 'x', name: 'X' } }, null);
  t.deepEqual(await ids({ teamId: 'none', assignee: 'unassigned', limit: 50 }), [queued.ref.conversationId]);
  t.deepEqual(await ids({ teamId: team.id, status: 'agent', limit: 50 }), []);
});
