import test from 'ava';
import { createScope, maxPatternLength, scopeRulesProblem, type ScopeRules } from './scope.js';

/*
 * What a tenant's website connector may crawl: its hosts, exactly, and the paths its patterns let in.
 */

function scope(rules: Partial<ScopeRules>) {
  return createScope({ hosts: ['docs.example.com'], include: [], exclude: [], ...rules });
}

test('hosts match exactly, in any case, www. not folded', (t) => {
  const s = scope({ hosts: ['Docs.Example.com', 'example.com'] });
  t.true(s.inScope('https://docs.example.com/a'));
  t.true(s.inScope('http://DOCS.EXAMPLE.COM/a'));
  t.true(s.inScope('https://example.com/'));
  t.is(s.reason('https://www.example.com/'), 'host');
  t.is(s.reason('https://blog.docs.example.com/'), 'host');
  t.is(s.reason('https://example.com.evil.test/'), 'host');
  t.is(s.reason('https://evil.test/?u=https://example.com/'), 'host');
});

test('ports: the default is no port, another port is another site', (t) => {
  const s = scope({ hosts: ['example.com', '127.0.0.1:8080'] });
  t.true(s.inScope('https://example.com:443/a'));
  t.true(s.inScope('http://example.com:80/a'));
  t.is(s.reason('https://example.com:8443/a'), 'host');
  t.true(s.inScope('http://127.0.0.1:8080/a'));
  t.is(s.reason('http://127.0.0.1/a'), 'host');
});

test('what is not an http(s) URL is out, as not on the hosts', (t) => {
  const s = scope({});
  t.is(s.reason('mailto:a@docs.example.com'), 'host');
  t.is(s.reason('ftp://docs.example.com/a'), 'host');
  t.is(s.reason('/relative'), 'host');
  t.is(s.reason('not a url'), 'host');
});

test('an empty include takes everything on the hosts', (t) => {
  const s = scope({});
  for (const path of ['/', '/a', '/docs/x?y=1']) t.true(s.inScope(`https://docs.example.com${path}`), path);
});

test('a plain pattern is a prefix of path and query, case-sensitive', (t) => {
  const s = scope({ include: ['/docs/', '/faq'] });
  t.true(s.inScope('https://docs.example.com/docs/'));
  t.true(s.inScope('https://docs.example.com/docs/a/b'));
  t.true(s.inScope('https://docs.example.com/faq'));
  t.true(s.inScope('https://docs.example.com/faq.html'));
  t.true(s.inScope('https://docs.example.com/faqs?x=1'));
  t.is(s.reason('https://docs.example.com/docs'), 'not_included');
  t.is(s.reason('https://docs.example.com/Docs/a'), 'not_included');
  t.is(s.reason('https://docs.example.com/blog/docs/'), 'not_included');
  t.is(s.reason('https://docs.example.com/'), 'not_included');
});

test('* is any run of characters, $ anchors the end', (t) => {
  const s = scope({ include: ['/blog/*.html$', '/*/guide/', '/exact$'] });
  t.true(s.inScope('https://docs.example.com/blog/post.html'));
  t.true(s.inScope('https://docs.example.com/blog/2024/01/post.html'));
  t.true(s.inScope('https://docs.example.com/blog/.html'));
  t.is(s.reason('https://docs.example.com/blog/post.html?page=2'), 'not_included');
  t.is(s.reason('https://docs.example.com/blog/post.htm'), 'not_included');
  t.is(s.reason('https://docs.example.com/blog/post.html/comments'), 'not_included');
  t.true(s.inScope('https://docs.example.com/en/guide/intro'));
  t.true(s.inScope('https://docs.example.com/en/v2/guide/'));
  t.true(s.inScope('https://docs.example.com/exact'));
  t.is(s.reason('https://docs.example.com/exact/'), 'not_included');
  t.is(s.reason('https://docs.example.com/exactly'), 'not_included');
});

test('patterns see the query: *?print= and friends', (t) => {
  const s = scope({ exclude: ['*?print=', '*&print=', '/search', '*sessionid'] });
  t.is(s.reason('https://docs.example.com/a?print=1'), 'excluded');
  t.is(s.reason('https://docs.example.com/a?lang=en&print=1'), 'excluded');
  t.is(s.reason('https://docs.example.com/search?q=x'), 'excluded');
  t.is(s.reason('https://docs.example.com/a;sessionid=3'), 'excluded');
  t.true(s.inScope('https://docs.example.com/a?printer=1'));
  t.true(s.inScope('https://docs.example.com/a?lang=en'));
});

test('patterns see the normalized URL: sorted query, no tracking, no fragment', (t) => {
  const s = scope({ include: ['/a?lang=', '/b$'] });
  t.true(s.inScope('https://docs.example.com/a?page=2&lang=en'));
  t.true(s.inScope('https://docs.example.com/b?utm_source=mail#top'));
  t.true(s.inScope('https://docs.example.com//b'));
});

test('exclude wins over include', (t) => {
  const s = scope({ include: ['/docs/'], exclude: ['/docs/internal/', '*.pdf$'] });
  t.true(s.inScope('https://docs.example.com/docs/a'));
  t.is(s.reason('https://docs.example.com/docs/internal/a'), 'excluded');
  t.is(s.reason('https://docs.example.com/docs/manual.pdf'), 'excluded');
  t.is(s.reason('https://docs.example.com/other'), 'not_included');
  t.is(s.reason('https://other.example.com/docs/internal/a'), 'host');
});

test('repeated and edge wildcards', (t) => {
  const s = scope({ include: ['/**/a**b$', '*$'] });
  t.true(s.inScope('https://docs.example.com/anything'));
  const t2 = scope({ include: ['/x/**/a**b$'] });
  t.true(t2.inScope('https://docs.example.com/x/1/2/aXXb'));
  t.true(t2.inScope('https://docs.example.com/x/1/ab'));
  t.is(t2.reason('https://docs.example.com/x//ab'), 'not_included');
  t.is(t2.reason('https://docs.example.com/x/1/ab/c'), 'not_included');
  t.true(t2.inScope('https://docs.example.com/x/1/ab/cab'));
  const root = scope({ include: ['/$'] });
  t.true(root.inScope('https://docs.example.com'));
  t.is(root.reason('https://docs.example.com/a'), 'not_included');
});

test('regular-expression characters are literal', (t) => {
  const s = scope({ include: ['/a.b', '/c+(d)|[e]', '/f?g=1', '/h$i', '/j\\k'] });
  t.true(s.inScope('https://docs.example.com/a.b'));
  t.is(s.reason('https://docs.example.com/aXb'), 'not_included');
  t.true(s.inScope('https://docs.example.com/c+(d)|[e]'));
  t.is(s.reason('https://docs.example.com/cc(d)'), 'not_included');
  t.true(s.inScope('https://docs.example.com/f?g=1'));
  t.is(s.reason('https://docs.example.com/fXg=1'), 'not_included');
  t.true(s.inScope('https://docs.example.com/h$i'));
});

test('non-ASCII and escapes match as URLs carry them', (t) => {
  const s = scope({ include: ['/café/', '/%c3%bc/'] });
  t.true(s.inScope('https://docs.example.com/café/menu'));
  t.true(s.inScope('https://docs.example.com/caf%C3%A9/menu'));
  t.true(s.inScope('https://docs.example.com/caf%c3%a9/menu'));
  t.true(s.inScope('https://docs.example.com/ü/a'));
});

test('a pathological pattern against a long path stays fast', (t) => {
  const pattern = `/${'*a'.repeat(90)}*b$`;
  const s = scope({ include: [pattern] });
  const path = `/${'a'.repeat(20_000)}`;
  const started = performance.now();
  t.is(s.reason(`https://docs.example.com${path}`), 'not_included');
  t.true(s.inScope(`https://docs.example.com${path}b`));
  // A backtracking matcher would take astronomically long here; a generous bound, not a benchmark.
  t.true(performance.now() - started < 2_000);
});

const problems: Array<[rules: Partial<ScopeRules>, problem: string]> = [
  [{ hosts: [] }, 'hosts must name at least one host'],
  [{ hosts: Array.from({ length: 51 }, (_, i) => `h${i}.example.com`) }, 'hosts may hold at most 50 hosts'],
  [{ hosts: ['example.com', 'https://example.com'] }, 'hosts[1] must be a host name, with a port if any, and nothing else'],
  [{ hosts: ['example.com/docs'] }, 'hosts[0] must be a host name, with a port if any, and nothing else'],
  [{ hosts: ['exa mple.com'] }, 'hosts[0] must be a host name, with a port if any, and nothing else'],
  [{ hosts: ['user@example.com'] }, 'hosts[0] must be a host name, with a port if any, and nothing else'],
  [{ hosts: ['example.com:99999'] }, 'hosts[0] must be a host name, with a port if any, and nothing else'],
  [{ hosts: [''] }, 'hosts[0] must be a host name, with a port if any, and nothing else'],
  [{ include: Array.from({ length: 51 }, (_, i) => `/p${i}`) }, 'include may hold at most 50 patterns'],
  [{ exclude: Array.from({ length: 51 }, (_, i) => `/p${i}`) }, 'exclude may hold at most 50 patterns'],
  [{ include: [`/${'a'.repeat(maxPatternLength)}`] }, 'include[0] must be 1 to 200 characters'],
  [{ exclude: ['/ok', ''] }, 'exclude[1] must be 1 to 200 characters'],
  [{ include: ['docs/'] }, 'include[0] must start with / or *'],
  [{ include: ['$'] }, 'include[0] must start with / or *'],
  [{ exclude: ['/a b'] }, 'exclude[0] must not contain spaces or control characters'],
  [{ exclude: ['/a\nDisallow: /'] }, 'exclude[0] must not contain spaces or control characters'],
];

for (const [rules, problem] of problems) {
  test(`scopeRulesProblem(${JSON.stringify(rules).slice(0, 60)}): ${problem}`, (t) => {
    const full = { hosts: ['docs.example.com'], include: [], exclude: [], ...rules };
    t.is(scopeRulesProblem(full), problem);
    t.throws(() => createScope(full), { message: `Invalid website scope: ${problem}` });
  });
}

test('the limits themselves are allowed', (t) => {
  const fifty = Array.from({ length: 50 }, (_, i) => `/p${i}/${'x'.repeat(maxPatternLength - 10)}`.slice(0, maxPatternLength));
  const rules = { hosts: ['[::1]:8080', 'xn--mnchen-3ya.de', 'münchen.de'], include: fifty, exclude: fifty };
  t.is(scopeRulesProblem(rules), undefined);
  t.notThrows(() => createScope(rules));
});
