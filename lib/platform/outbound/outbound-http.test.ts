import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { AddressRefusedError, guardedLookup, type Resolve } from './guarded-connector.js';
import { createOutboundHttp, OutboundError, type OutboundHttpOptions } from './outbound-http.js';

/*
 * The way out, against real sockets. Every server here listens on a loopback address (127.0.0.1, or
 * 127.0.0.2 for "somewhere inside"), and names are resolved by a resolver the test gives, so nothing
 * ever leaves the machine. Where a test needs an address the rules allow, it allows 127.0.0.1 alone
 * (`allowedNetworks: ['127.0.0.1/32']`): it stands for a public address, and 127.0.0.2, refused, for
 * an internal one. Without any allowance (production) loopback is refused like any internal address.
 */

interface TestServer {
  url: string;
  port: number;
  requests: IncomingMessage[];
}

async function serve(
  t: ExecutionContext,
  handle: (request: IncomingMessage, response: ServerResponse) => void,
  { host = '127.0.0.1', port = 0 } = {},
): Promise<TestServer> {
  const requests: IncomingMessage[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request);
    handle(request, response);
  });
  server.listen(port, host);
  await once(server, 'listening');
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const bound = (server.address() as AddressInfo).port;
  return { url: `http://${host}:${bound}`, port: bound, requests };
}

/** A resolver from a table; each name's answers are given in turn, the last one repeating. */
function resolver(table: Record<string, string[][]>) {
  const calls: string[] = [];
  const resolve: Resolve = async (hostname) => {
    calls.push(hostname);
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const addresses = answers.length > 1 ? answers.shift()! : answers[0]!;
    return addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}

function outbound(t: ExecutionContext, options: Partial<OutboundHttpOptions> & Pick<OutboundHttpOptions, 'allowedNetworks'>) {
  const http = createOutboundHttp({ httpsOnly: false, maxResponseBytes: 64 * 1024, ...options });
  t.teardown(() => http.close());
  return http;
}

const ok = (_request: IncomingMessage, response: ServerResponse) => {
  response.setHeader('connection', 'close');
  response.end('hello');
};

async function refusal(t: ExecutionContext, promise: Promise<unknown>) {
  return t.throwsAsync(promise, { instanceOf: OutboundError }) as Promise<OutboundError>;
}

test('without the allowance a loopback server is refused at connect time, by name or by address', async (t) => {
  const server = await serve(t, ok);
  const { resolve, calls } = resolver({
    'shop.test': [['127.0.0.1']],
    '127.0.0.1.nip.io': [['127.0.0.1']],
    'localhost..': [['127.0.0.1']],
    'dual.test': [['::1', '127.0.0.1']],
  });
  const http = outbound(t, { allowedNetworks: [], resolve });

  for (const host of ['shop.test', '127.0.0.1.nip.io', 'localhost..', 'dual.test']) {
    const error = await refusal(t, http.get(`http://${host}:${server.port}/admin`, { headers: {} }));
    t.like(error, { code: 'refused_address', retryable: false, message: `${host} is not at a public address` });
  }
  t.deepEqual(calls, ['shop.test', '127.0.0.1.nip.io', 'localhost..', 'dual.test'], 'each name resolved when connecting');
  for (const literal of [server.url, `http://[::ffff:127.0.0.1]:${server.port}`, `http://2130706433:${server.port}`]) {
    t.like(await refusal(t, http.get(literal, { headers: {} })), { code: 'refused_address' }, literal);
  }
  t.is(server.requests.length, 0, 'no request reached the server');
});

test('the same server is reached with the development allowance', async (t) => {
  const server = await serve(t, ok);
  const { resolve } = resolver({ 'shop.test': [['127.0.0.1']] });
  const http = outbound(t, { allowedNetworks: ['0.0.0.0/0', '::/0'], resolve });
  t.like(await http.get(`http://shop.test:${server.port}/admin`, { headers: {} }), {
    status: 200,
    statusText: 'OK',
    text: 'hello',
  });
  t.is(server.requests.length, 1);
});

test('DNS rebinding gains nothing: each connection checks the address it connects to', async (t) => {
  // 127.0.0.1 plays a public address here; the name then "rebinds" to 127.0.0.2, an internal one.
  const outside = await serve(t, ok);
  const inside = await serve(t, ok, { host: '127.0.0.2', port: outside.port });
  const { resolve, calls } = resolver({ 'rebind.test': [['127.0.0.1'], ['127.0.0.2']] });
  const http = outbound(t, { allowedNetworks: ['127.0.0.1/32'], resolve });
  const url = `http://rebind.test:${outside.port}/`;

  t.like(await http.get(url, { headers: {} }), { status: 200, text: 'hello' });
  const error = await refusal(t, http.get(url, { headers: {} }));
  t.like(error, { code: 'refused_address', message: 'rebind.test is not at a public address' });
  t.deepEqual(calls, ['rebind.test', 'rebind.test'], 'resolved again for the second connection');
  t.is(outside.requests.length, 1);
  t.is(inside.requests.length, 0);
});

test('a name with any address that is not public is refused, whatever its other addresses', async (t) => {
  const { resolve } = resolver({ 'mixed.test': [['93.184.216.34', '10.0.0.5']], 'public.test': [['93.184.216.34']] });
  const lookup = guardedLookup(resolve, []);
  const looked = (name: string) =>
    new Promise<unknown>((resolved, rejected) =>
      lookup(name, { all: true }, (error, addresses) => (error ? rejected(error) : resolved(addresses))),
    );
  await t.throwsAsync(looked('mixed.test'), { instanceOf: AddressRefusedError });
  t.deepEqual(await looked('public.test'), [{ address: '93.184.216.34', family: 4 }]);
});

test('a redirect to an address that is not public is refused, and the target never asked', async (t) => {
  const inside = await serve(t, ok, { host: '127.0.0.2' });
  const source = await serve(t, (request, response) => {
    const to = request.url === '/by-name' ? `http://inside.test:${inside.port}/v1/nodes` : `${inside.url}/v1/nodes`;
    response.writeHead(302, { location: to, connection: 'close' }).end();
  });
  const { resolve } = resolver({ 'source.test': [['127.0.0.1']], 'inside.test': [['127.0.0.2']] });
  const http = outbound(t, { allowedNetworks: ['127.0.0.1/32'], resolve });

  for (const path of ['/by-name', '/by-address']) {
    const error = await refusal(t, http.get(`http://source.test:${source.port}${path}`, { headers: {} }));
    t.like(error, { code: 'refused_address', message: 'source.test redirected to an address that is not public' }, path);
  }
  t.is(source.requests.length, 2);
  t.is(inside.requests.length, 0);
});

test('an allowed redirect is followed, without credentials across origins', async (t) => {
  const inside = await serve(t, ok, { host: '127.0.0.2' });
  const source = await serve(t, (_request, response) => {
    response.writeHead(301, { location: `http://inside.test:${inside.port}/moved`, connection: 'close' }).end();
  });
  const { resolve } = resolver({ 'source.test': [['127.0.0.1']], 'inside.test': [['127.0.0.2']] });
  const http = outbound(t, { allowedNetworks: ['127.0.0.1/32', '127.0.0.2/32'], resolve });

  const answer = await http.get(`http://source.test:${source.port}/`, {
    headers: { accept: 'application/json', 'x-shop-access-token': 'shpat_secret', authorization: 'Basic c2VjcmV0' },
  });
  t.like(answer, { status: 200, text: 'hello', url: `http://inside.test:${inside.port}/moved` });
  t.is(source.requests[0]?.headers['x-shop-access-token'], 'shpat_secret');
  t.like(inside.requests[0]?.headers, { accept: 'application/json' });
  t.is(inside.requests[0]?.headers['x-shop-access-token'], undefined);
  t.is(inside.requests[0]?.headers.authorization, undefined);
});

test('a redirect the caller declines is answered as it is, and its target never asked', async (t) => {
  const elsewhere = await serve(t, ok, { host: '127.0.0.2' });
  const site = await serve(t, (request, response) => {
    const location = request.url === '/in' ? '/moved' : `http://127.0.0.2:${elsewhere.port}/out`;
    if (request.url === '/moved') return void response.end('moved here');
    response.writeHead(302, { location, connection: 'close' }).end();
  });
  const http = outbound(t, { allowedNetworks: ['127.0.0.1/32', '127.0.0.2/32'] });
  const sameHost = (next: URL) => next.hostname === '127.0.0.1';

  const inside = await http.getBytes(`${site.url}/in`, { headers: {}, followRedirect: sameHost });
  t.like(inside, { status: 200, url: `${site.url}/moved` });
  t.is(inside.bytes.toString(), 'moved here');
  const declined = await http.get(`${site.url}/out`, { headers: {}, followRedirect: sameHost });
  t.like(declined, { status: 302, url: `${site.url}/out` });
  t.is(declined.headers.get('location'), `http://127.0.0.2:${elsewhere.port}/out`);
  t.is(elsewhere.requests.length, 0);
});

test('redirects are followed five times at most', async (t) => {
  const loop = await serve(t, (request, response) => {
    response.writeHead(302, { location: `/hop${request.url}`, connection: 'close' }).end();
  });
  const http = outbound(t, { allowedNetworks: ['127.0.0.1/32'] });
  const error = await refusal(t, http.get(`${loop.url}/`, { headers: {} }));
  t.like(error, { code: 'too_many_redirects', retryable: false, message: '127.0.0.1 redirected more than 5 times' });
  t.is(loop.requests.length, 6);
});

test('in production plain http is refused, on the first request and after a redirect', async (t) => {
  const server = await serve(t, ok);
  const http = outbound(t, { allowedNetworks: ['127.0.0.1/32'], httpsOnly: true });
  const first = await refusal(t, http.get(`${server.url}/`, { headers: {} }));
  t.like(first, { code: 'refused_scheme', message: '127.0.0.1: only https addresses are allowed' });
  t.is(server.requests.length, 0);

  // An https source is not served here; its answer, a redirect to http, is stood in for.
  const asked: string[] = [];
  const downgrading = outbound(t, {
    allowedNetworks: [],
    httpsOnly: true,
    transport: async (url) => {
      asked.push(url);
      return new Response(null, { status: 302, headers: { location: 'http://shop.example.com/admin' } });
    },
  });
  const error = await refusal(t, downgrading.get('https://shop.example.com/admin', { headers: {} }));
  t.like(error, { code: 'refused_scheme', message: 'shop.example.com redirected to an address that is not https' });
  t.deepEqual(asked, ['https://shop.example.com/admin']);
});

test('a body past the cap is abandoned with a clear error, streamed or declared', async (t) => {
  const chunk = Buffer.alloc(16 * 1024, 'x');
  let streamed = 0;
  const endless = await serve(t, (request, response) => {
    if (request.url === '/declared') {
      response.writeHead(200, { 'content-length': String(1024 * 1024) }).write(chunk);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    const more = () => {
      while (!response.destroyed && response.write(chunk)) streamed += chunk.length;
      if (!response.destroyed) response.once('drain', more);
    };
    more();
  });
  const http = outbound(t, { allowedNetworks: ['127.0.0.1/32'], maxResponseBytes: 64 * 1024 });
  for (const path of ['/endless', '/declared']) {
    const error = await refusal(t, http.get(`${endless.url}${path}`, { headers: {} }));
    t.like(error, { code: 'too_large', retryable: false, message: 'response larger than 65536 bytes from 127.0.0.1' }, path);
  }
  t.true(streamed < 64 * 1024 * 64, `the server was cut off after ${streamed} bytes`);
});

test('a connection that fails says so with the host it was given, never the socket error', async (t) => {
  const { resolve } = resolver({ 'shop.test': [['127.0.0.1']] });
  const http = outbound(t, { allowedNetworks: ['127.0.0.1/32'], resolve });
  // Nothing listens there: ECONNREFUSED 127.0.0.1:<port> underneath.
  const unused = await freePort();

  const error = await refusal(t, http.get(`http://shop.test:${unused}/`, { headers: {} }));
  t.like(error, { code: 'unreachable', retryable: true, message: 'could not connect to shop.test' });
  t.notRegex(error.message, /ECONNREFUSED|127\.0\.0\.1/);
  t.is(error.cause, undefined);

  const unknown = await refusal(t, http.get('http://nowhere.test/', { headers: {} }));
  t.like(unknown, { code: 'unreachable', message: 'could not connect to nowhere.test' });
});

async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

test('post sends the body once, and answers a redirect as it is without following it', async (t) => {
  const bodies: string[] = [];
  const inside = await serve(t, (_request, response) => response.end('inside'), { host: '127.0.0.2' });
  const server = await serve(t, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      if (request.url === '/moved') response.writeHead(307, { location: `${inside.url}/` }).end();
      else response.writeHead(204).end();
    });
  });
  const http = outbound(t, { allowedNetworks: ['127.0.0.1/32'] });
  const delivered = await http.post(`${server.url}/hook`, { headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
  t.is(delivered.status, 204);
  const moved = await http.post(`${server.url}/moved`, { headers: {}, body: '{"b":2}' });
  t.is(moved.status, 307, 'the redirect is the answer');
  t.deepEqual(bodies, ['{"a":1}', '{"b":2}']);
  t.is(inside.requests.length, 0, 'the address inside was never reached');
});

test('post refuses an internal address, by literal or by name, and plain http when https only', async (t) => {
  const inside = await serve(t, (_request, response) => response.end('inside'), { host: '127.0.0.2' });
  const { resolve } = resolver({ 'hooks.example': [['127.0.0.2']] });
  const http = outbound(t, { allowedNetworks: ['127.0.0.1/32'], resolve });
  const literal = await t.throwsAsync(http.post(`${inside.url}/`, { headers: {}, body: '{}' }), { instanceOf: OutboundError });
  t.is(literal.code, 'refused_address');
  const named = await t.throwsAsync(http.post(`http://hooks.example:${inside.port}/`, { headers: {}, body: '{}' }), {
    instanceOf: OutboundError,
  });
  t.is(named.code, 'refused_address');
  t.is(inside.requests.length, 0);
  const httpsOnly = outbound(t, { allowedNetworks: ['127.0.0.1/32'], httpsOnly: true });
  const scheme = await t.throwsAsync(httpsOnly.post('http://hooks.example/', { headers: {}, body: '{}' }), {
    instanceOf: OutboundError,
  });
  t.is(scheme.code, 'refused_scheme');
});
