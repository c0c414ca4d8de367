/**
 * Verified visitor identity against the real stack: operators' identity secrets (shown once, sealed,
 * rotated with a grace period), identity tokens of both shapes on the chat API (forged, expired,
 * early, another operator's, replayed), required verification, a verified visitor's conversations
 * from another device, and what agents see. Tenants and operators never see each other's visitors.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { createTenant, createUser, everythingStored } from '#testing/api.js';
import { chatClient } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { hmacIdentityToken, jwtIdentityToken, unixNow } from '#testing/identity.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { identityConversationsResponse, identityResponse, widgetConfigResponse } from '../schemas/chat.js';
import { errorBody } from '../schemas/common.js';
import { identitySecretResponse, operatorIdentityResponse } from '../schemas/operator-identity.js';

let stack: IngestionStack;
test.before(async () => {
  stack = await startIngestionStack({ CHAT_VISITOR_PER_MINUTE: '1000', CHAT_CONVERSATIONS_PER_HOUR: '1000' });
});
test.after.always(() => stack?.close());

/** A tenant with an admin, an agent and one operator per name. */
async function tenantWith(...operatorNames: string[]) {
  const { api } = stack;
  const tenant = await createTenant(api, 'Shop');
  const admin = await createUser(api, tenant.id, 'admin', 'Admin');
  const agent = await createUser(api, tenant.id, 'agent', 'Agent');
  const operators = [];
  for (const name of operatorNames) {
    const operator = (await api.admin('POST', `/admin/tenants/${tenant.id}/operators`, { name })).body;
    operators.push({ ...operator, chat: chatClient(api.url, operator.operatorKey as string) });
  }
  return { tenant, admin, agent, operators };
}

async function rotate(admin: { headers: Record<string, string> }, operatorId: string, body?: Record<string, unknown>) {
  const response = await stack.api.request('POST', `/integrations/operators/${operatorId}/identity-secret`, {
    headers: admin.headers,
    ...(body ? { body } : {}),
  });
  if (response.status !== 201) throw new Error(`rotation answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.secret as string;
}

/** Starts a conversation with whatever body; answers the raw response. */
const start = (operatorKey: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  stack.api.request('POST', '/chat/conversations', { headers: { 'x-operator-key': operatorKey, ...headers }, body });

const identify = (operatorKey: string, identityToken: string) =>
  stack.api.request('POST', '/chat/identity', { headers: { 'x-operator-key': operatorKey }, body: { identityToken } });

const agentView = async (agent: { headers: Record<string, string> }, conversationId: string) =>
  (await stack.api.request('GET', `/agent/conversations/${conversationId}`, { headers: agent.headers })).body;

function refusedAs(t: any, response: { status: number; body: any }, status: number, code: string, reason?: string) {
  t.is(response.status, status, JSON.stringify(response.body));
  assertMatchesSchema(t, errorBody, response.body);
  t.is(response.body.error.code, code);
  if (reason) t.is(response.body.error.details?.[0]?.message, reason, response.body.error.message);
}

test('a tenant admin creates an identity secret: shown once, sealed at rest, never shown again; agents and other tenants cannot', async (t) => {
  const { admin, agent, operators } = await tenantWith('Assistant');
  const [operator] = operators;
  const path = `/integrations/operators/${operator!.id}/identity`;

  const before = await stack.api.request('GET', path, { headers: admin.headers });
  t.like(before.body, { operatorId: operator!.id, required: false, hasSecret: false, secretCreatedAt: null });

  const created = await stack.api.request('POST', `${path}-secret`, { headers: admin.headers });
  t.is(created.status, 201);
  assertMatchesSchema(t, identitySecretResponse, created.body);
  t.regex(created.body.secret, /^kb_is_[A-Za-z0-9_-]{43}$/);
  t.is(created.headers.get('cache-control'), 'no-store');

  const after = await stack.api.request('GET', path, { headers: admin.headers });
  assertMatchesSchema(t, operatorIdentityResponse, after.body);
  t.like(after.body, { hasSecret: true, previousSecretExpiresAt: null });
  t.false(JSON.stringify(after.body).includes(created.body.secret));
  t.false((await everythingStored(stack.api)).includes(created.body.secret), 'stored only sealed');

  refusedAs(t, await stack.api.request('POST', `${path}-secret`, { headers: agent.headers }), 403, 'forbidden');
  const stranger = await tenantWith();
  refusedAs(t, await stack.api.request('POST', `${path}-secret`, { headers: stranger.admin.headers }), 403, 'forbidden');
  refusedAs(t, await stack.api.request('GET', path, { headers: stranger.admin.headers }), 403, 'forbidden');
  refusedAs(
    t,
    await stack.api.request('GET', `/integrations/operators/${randomUUID()}/identity`, { headers: admin.headers }),
    404,
    'not_found',
  );
});

test('valid HMAC and JWT tokens make the contact verified; the token overrides what the page claims, and agents see it', async (t) => {
  const { admin, agent, operators } = await tenantWith('Assistant');
  const [operator] = operators;
  const secret = await rotate(admin, operator!.id);
  const pageContact = { userId: 'who-the-page-says', name: 'Page Name', email: 'page@example.com' };

  const byHmac = await start(operator!.operatorKey, { contact: pageContact, identityToken: hmacIdentityToken(secret, 'user-1') });
  t.is(byHmac.status, 201, JSON.stringify(byHmac.body));
  t.deepEqual((await agentView(agent, byHmac.body.conversationId)).contact, {
    userId: 'user-1',
    name: 'Page Name',
    email: 'page@example.com',
    verified: true,
  });

  const jwt = jwtIdentityToken(secret, { sub: 'user-2', name: 'Grace Hopper', email: 'grace@example.com' });
  const byJwt = await start(operator!.operatorKey, { contact: pageContact, identityToken: jwt });
  t.is(byJwt.status, 201);
  t.deepEqual((await agentView(agent, byJwt.body.conversationId)).contact, {
    userId: 'user-2',
    name: 'Grace Hopper',
    email: 'grace@example.com',
    verified: true,
  });

  const unverified = await start(operator!.operatorKey, { contact: pageContact });
  const listed = await stack.api.request('GET', '/agent/conversations?status=all', { headers: agent.headers });
  const contactOf = (id: string) => listed.body.conversations.find((c: any) => c.conversationId === id)?.contact;
  t.true(contactOf(byJwt.body.conversationId).verified);
  t.deepEqual(contactOf(unverified.body.conversationId), pageContact, 'no verified flag for what the page claims');
  // The page cannot claim to be verified.
  refusedAs(t, await start(operator!.operatorKey, { contact: { ...pageContact, verified: true } }), 400, 'invalid_payload');
});

test('forged, expired, early, long-lived, wrong-operator and replayed tokens are refused with identity_invalid', async (t) => {
  const { admin, operators } = await tenantWith('First', 'Second');
  const [first, second] = operators;
  const secret = await rotate(admin, first!.id);
  const otherSecret = await rotate(admin, second!.id);
  const key = first!.operatorKey as string;
  const refuse = async (token: string, reason: string) =>
    refusedAs(t, await start(key, { identityToken: token }), 401, 'identity_invalid', reason);

  await refuse(hmacIdentityToken('kb_is_' + 'f'.repeat(43), 'user-1'), 'bad_signature');
  await refuse(hmacIdentityToken(otherSecret, 'user-1'), 'bad_signature');
  await refuse(jwtIdentityToken(otherSecret, { sub: 'user-1' }), 'bad_signature');
  await refuse(jwtIdentityToken(secret, { sub: 'user-1' }, { alg: 'none' }), 'malformed');
  await refuse(hmacIdentityToken(secret, 'user-1', { iat: unixNow(-600), exp: unixNow(-61) }), 'expired');
  await refuse(jwtIdentityToken(secret, { sub: 'user-1', iat: unixNow(-600), exp: unixNow(-61) }), 'expired');
  await refuse(hmacIdentityToken(secret, 'user-1', { iat: unixNow(120), exp: unixNow(300) }), 'not_yet_valid');
  await refuse(hmacIdentityToken(secret, 'user-1', { iat: unixNow(), exp: unixNow(7200) }), 'lifetime_too_long');
  // Within the 60 s of skew either way: accepted.
  t.is(
    (await start(key, { identityToken: hmacIdentityToken(secret, 'u', { iat: unixNow(30), exp: unixNow(300) }) })).status,
    201,
  );
  t.is(
    (await start(key, { identityToken: jwtIdentityToken(secret, { sub: 'u', iat: unixNow(-300), exp: unixNow(-30) }) })).status,
    201,
  );

  // A token is taken once: by the same route, by another route, or by another device.
  const token = hmacIdentityToken(secret, 'user-1');
  t.is((await start(key, { identityToken: token })).status, 201);
  await refuse(token, 'replayed');
  refusedAs(t, await identify(key, token), 401, 'identity_invalid', 'replayed');
  const jwt = jwtIdentityToken(secret, { sub: 'user-1' });
  t.is((await identify(key, jwt)).status, 201);
  await refuse(jwt, 'replayed');
  // A page reload signs a fresh token: accepted.
  t.is((await start(key, { identityToken: hmacIdentityToken(secret, 'user-1') })).status, 201);

  // An operator without a secret verifies nothing.
  const { operators: bare } = await tenantWith('Bare');
  refusedAs(
    t,
    await start(bare[0]!.operatorKey, { identityToken: hmacIdentityToken(secret, 'u') }),
    401,
    'identity_invalid',
    'no_secret',
  );
});

test('a rotated secret keeps verifying within its grace period, then stops; a secret two rotations back stops at once', async (t) => {
  const { admin, operators } = await tenantWith('Assistant');
  const [operator] = operators;
  const key = operator!.operatorKey as string;
  const verifies = async (secret: string) => (await start(key, { identityToken: hmacIdentityToken(secret, 'u') })).status === 201;

  const first = await rotate(admin, operator!.id);
  const second = await rotate(admin, operator!.id, { graceSeconds: 3600 });
  const status = (await stack.api.request('GET', `/integrations/operators/${operator!.id}/identity`, { headers: admin.headers }))
    .body;
  t.truthy(status.previousSecretExpiresAt);
  t.true(await verifies(second), 'the new secret at once');
  t.true(await verifies(first), 'the previous one within its grace period');

  const third = await rotate(admin, operator!.id, { graceSeconds: 1 });
  t.true(await verifies(third));
  t.false(await verifies(first), 'replaced by an earlier rotation: stops at once');
  const graceOver = await eventually(
    () => verifies(second),
    (verified) => !verified,
  );
  t.false(graceOver, 'the previous secret stops after its grace period');
  t.true(await verifies(third));

  await rotate(admin, operator!.id, { graceSeconds: 0 });
  t.false(await verifies(third), 'a grace of 0 stops the previous secret at once');
  refusedAs(
    t,
    await stack.api.request('POST', `/integrations/operators/${operator!.id}/identity-secret`, {
      headers: admin.headers,
      body: { graceSeconds: 8 * 24 * 3600 },
    }),
    400,
    'invalid_payload',
  );
});

test('an operator that requires verification refuses unverified visitors, new and earlier ones, with identity_required', async (t) => {
  const { admin, operators } = await tenantWith('Assistant');
  const [operator] = operators;
  const key = operator!.operatorKey as string;
  const path = `/integrations/operators/${operator!.id}/identity`;
  refusedAs(t, await stack.api.request('PATCH', path, { headers: admin.headers, body: { required: true } }), 409, 'conflict');

  const secret = await rotate(admin, operator!.id);
  const earlier = await operator!.chat.start({ contact: { name: 'Before' } });
  const verifiedBefore = await operator!.chat.start({ identityToken: hmacIdentityToken(secret, 'user-1') });
  const required = await stack.api.request('PATCH', path, { headers: admin.headers, body: { required: true } });
  t.like(required.body, { required: true, hasSecret: true });

  const config = async (operatorKey: string) =>
    (await stack.api.request('GET', '/chat/config', { headers: { 'x-operator-key': operatorKey } })).body;
  const told = await config(key);
  assertMatchesSchema(t, widgetConfigResponse, told);
  t.true(told.identityRequired, '/chat/config tells the widget before it tries to start');
  const { operators: others } = await tenantWith('Open');
  t.false((await config(others[0]!.operatorKey)).identityRequired, "another tenant's operator does not require it");
  refusedAs(t, await start(key, { contact: { name: 'Anonymous' } }), 403, 'identity_required');
  refusedAs(t, await operator!.chat.history(earlier), 403, 'identity_required');
  t.is((await operator!.chat.history(verifiedBefore)).status, 200);
  t.is((await start(key, { identityToken: jwtIdentityToken(secret, { sub: 'user-2' }) })).status, 201);

  await stack.api.request('PATCH', path, { headers: admin.headers, body: { required: false } });
  t.false((await config(key)).identityRequired);
  t.is((await start(key, {})).status, 201);
  t.is((await operator!.chat.history(earlier)).status, 200);
});

test('a verified visitor sees and continues their earlier conversations from another device, and only theirs', async (t) => {
  const { admin, agent, operators } = await tenantWith('First', 'Second');
  const [first, second] = operators;
  const secret = await rotate(admin, first!.id);
  const secondSecret = await rotate(admin, second!.id);
  const key = first!.operatorKey as string;

  // On the laptop: two conversations as user-7; another user's, a page claiming user-7, and user-7 with the other operator.
  const older = await first!.chat.start({ identityToken: hmacIdentityToken(secret, 'user-7') });
  const newer = await first!.chat.start({ identityToken: jwtIdentityToken(secret, { sub: 'user-7', name: 'Seven' }) });
  const someoneElse = await first!.chat.start({ identityToken: hmacIdentityToken(secret, 'user-8') });
  const claimed = await first!.chat.start({ contact: { userId: 'user-7' } });
  const elsewhere = await second!.chat.start({ identityToken: hmacIdentityToken(secondSecret, 'user-7') });

  // On the phone: a fresh token lists them, newest first, with their last message.
  const phone = await identify(key, hmacIdentityToken(secret, 'user-7'));
  t.is(phone.status, 201);
  assertMatchesSchema(t, identityResponse, phone.body);
  t.is(phone.body.userId, 'user-7');
  t.deepEqual(
    phone.body.conversations.map((c: any) => c.conversationId),
    [newer.conversationId, older.conversationId],
  );
  t.is(phone.body.conversations[0].lastMessage.author, 'ai', 'the greeting');

  // The session opens them: read, ask for a person, start a new verified conversation.
  const session = { 'x-operator-key': key, 'x-visitor-token': phone.body.visitorToken };
  const read = await stack.api.request('GET', `/chat/conversations/${older.conversationId}/messages`, { headers: session });
  t.is(read.status, 200);
  t.is(read.body.conversationId, older.conversationId);
  const handoff = await stack.api.request('POST', `/chat/conversations/${older.conversationId}/handoff`, { headers: session });
  t.is(handoff.status, 202);
  const fresh = await start(key, {}, { 'x-visitor-token': phone.body.visitorToken });
  t.is(fresh.status, 201);
  t.like((await agentView(agent, fresh.body.conversationId)).contact, { userId: 'user-7', verified: true });

  // Never anyone else's: another user's, a page's claim, another operator's (with either key), another tenant's.
  for (const other of [someoneElse, claimed])
    refusedAs(
      t,
      await stack.api.request('GET', `/chat/conversations/${other.conversationId}/messages`, { headers: session }),
      403,
      'forbidden',
    );
  const otherOperator = { 'x-operator-key': second!.operatorKey, 'x-visitor-token': phone.body.visitorToken };
  refusedAs(
    t,
    await stack.api.request('GET', `/chat/conversations/${elsewhere.conversationId}/messages`, { headers: otherOperator }),
    403,
    'forbidden',
  );
  refusedAs(
    t,
    await start(second!.operatorKey, {}, { 'x-visitor-token': phone.body.visitorToken }),
    401,
    'identity_invalid',
    'session_invalid',
  );
  const secondList = await identify(second!.operatorKey, hmacIdentityToken(secondSecret, 'user-7'));
  t.deepEqual(
    secondList.body.conversations.map((c: any) => c.conversationId),
    [elsewhere.conversationId],
  );

  const stranger = await tenantWith('Stranger');
  const strangerSecret = await rotate(stranger.admin, stranger.operators[0]!.id);
  const strangerList = await identify(stranger.operators[0]!.operatorKey, hmacIdentityToken(strangerSecret, 'user-7'));
  t.deepEqual(strangerList.body.conversations, [], "another tenant's user-7 is someone else");
  const strangerSession = {
    'x-operator-key': stranger.operators[0]!.operatorKey,
    'x-visitor-token': strangerList.body.visitorToken,
  };
  refusedAs(
    t,
    await stack.api.request('GET', `/chat/conversations/${older.conversationId}/messages`, { headers: strangerSession }),
    403,
    'forbidden',
  );
});

test("a verified session lists the visitor's conversations again (titled), reads a closed one's transcript, and only its own", async (t) => {
  const { admin, agent, operators } = await tenantWith('First', 'Second');
  const [first, second] = operators;
  const secret = await rotate(admin, first!.id);
  const secondSecret = await rotate(admin, second!.id);
  const key = first!.operatorKey as string;

  const closed = await first!.chat.start({ identityToken: hmacIdentityToken(secret, 'user-9') });
  await first!.chat.ask(closed, 'How many days do I have to return an item?');
  const closing = await stack.api.request('POST', `/agent/conversations/${closed.conversationId}/close`, {
    headers: agent.headers,
  });
  t.true(closing.status < 300, JSON.stringify(closing.body));
  const someoneElse = await first!.chat.start({ identityToken: hmacIdentityToken(secret, 'user-10') });
  await first!.chat.ask(someoneElse, 'Where is my parcel?');
  const elsewhere = await second!.chat.start({ identityToken: hmacIdentityToken(secondSecret, 'user-9') });

  const phone = await identify(key, hmacIdentityToken(secret, 'user-9'));
  const session = { 'x-operator-key': key, 'x-visitor-token': phone.body.visitorToken };
  const fresh = await start(key, {}, { 'x-visitor-token': phone.body.visitorToken });
  t.is(fresh.status, 201);

  // The session lists them again, the one it just started too, with no identity token spent.
  const listed = await eventually(
    () => stack.api.request('GET', '/chat/identity/conversations', { headers: session }),
    (response) => response.body.conversations?.[1]?.status === 'closed',
  );
  t.is(listed.status, 200);
  assertMatchesSchema(t, identityConversationsResponse, listed.body);
  t.is(listed.body.userId, 'user-9');
  t.deepEqual(
    listed.body.conversations.map((c: any) => [c.conversationId, c.status, c.title]),
    [
      [fresh.body.conversationId, 'ai', null],
      [closed.conversationId, 'closed', 'How many days do I have to return an item?'],
    ],
  );

  // A closed conversation's transcript reads through the session; it takes no more messages.
  const transcript = await stack.api.request('GET', `/chat/conversations/${closed.conversationId}/messages`, {
    headers: session,
  });
  t.is(transcript.status, 200);
  t.is(transcript.body.status, 'closed');
  t.true(
    transcript.body.messages.some((m: any) => m.author === 'visitor' && m.text === 'How many days do I have to return an item?'),
  );
  const sent = await stack.api.request('POST', `/chat/conversations/${closed.conversationId}/messages`, {
    headers: session,
    body: { text: 'Hello again' },
  });
  refusedAs(t, sent, 409, 'conversation_closed');

  // Never another user's, operator's or tenant's: not listed, not readable; the session is this operator's only.
  refusedAs(
    t,
    await stack.api.request('GET', `/chat/conversations/${someoneElse.conversationId}/messages`, { headers: session }),
    403,
    'forbidden',
  );
  refusedAs(
    t,
    await stack.api.request('GET', '/chat/identity/conversations', {
      headers: { 'x-operator-key': second!.operatorKey, 'x-visitor-token': phone.body.visitorToken },
    }),
    401,
    'identity_invalid',
    'session_invalid',
  );
  const secondList = await identify(second!.operatorKey, hmacIdentityToken(secondSecret, 'user-9'));
  t.deepEqual(
    secondList.body.conversations.map((c: any) => c.conversationId),
    [elsewhere.conversationId],
  );
  const stranger = await tenantWith('Stranger');
  const strangerSecret = await rotate(stranger.admin, stranger.operators[0]!.id);
  const strangerList = await identify(stranger.operators[0]!.operatorKey, hmacIdentityToken(strangerSecret, 'user-9'));
  const strangerSession = {
    'x-operator-key': stranger.operators[0]!.operatorKey,
    'x-visitor-token': strangerList.body.visitorToken,
  };
  t.deepEqual(
    (await stack.api.request('GET', '/chat/identity/conversations', { headers: strangerSession })).body.conversations,
    [],
  );
  refusedAs(
    t,
    await stack.api.request('GET', `/chat/conversations/${closed.conversationId}/messages`, { headers: strangerSession }),
    403,
    'forbidden',
  );
  // A conversation's own visitor token is not a session; neither is nothing.
  for (const token of [closed.visitorToken, 'kb_vs_' + 'x'.repeat(43)])
    refusedAs(
      t,
      await stack.api.request('GET', '/chat/identity/conversations', {
        headers: { 'x-operator-key': key, 'x-visitor-token': token },
      }),
      401,
      'identity_invalid',
      'session_invalid',
    );
  refusedAs(
    t,
    await stack.api.request('GET', '/chat/identity/conversations', { headers: { 'x-operator-key': key } }),
    401,
    'identity_invalid',
  );
});
