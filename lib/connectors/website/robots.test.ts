import test from 'ava';
import { maxRobotsBytes, parseRobots, type RobotsPolicy } from './robots.js';

/*
 * RFC 9309 as the crawler applies it: our group, else `*`; the longest match wins, Allow on a tie; a missing file
 * allows everything, an erroring or unreachable one disallows everything.
 */

const robotsUrl = 'https://example.com/robots.txt';

function rules(text: string): RobotsPolicy {
  return parseRobots(robotsUrl, { status: 200, text });
}

function allowed(policy: RobotsPolicy, path: string): boolean {
  return policy.allows(`https://example.com${path}`);
}

test('our group is followed, not the * group', (t) => {
  const policy = rules(['User-agent: *', 'Disallow: /', '', 'User-agent: KbAssistantBot', 'Disallow: /private/'].join('\n'));
  t.is(policy.state, 'rules');
  t.is(policy.reason, undefined);
  t.true(allowed(policy, '/'));
  t.true(allowed(policy, '/docs/a'));
  t.false(allowed(policy, '/private/a'));
});

test('the product token matches whatever its case or version', (t) => {
  for (const agent of ['kbassistantbot', 'KBASSISTANTBOT', 'KbAssistantBot/1.0', 'KbAssistantBot/2.3']) {
    const policy = rules(`User-agent: *\nAllow: /\n\nUser-agent: ${agent}\nDisallow: /`);
    t.false(allowed(policy, '/a'), agent);
  }
});

test('the * group applies when no group names us', (t) => {
  const policy = rules('User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /admin');
  t.true(allowed(policy, '/docs'));
  t.false(allowed(policy, '/admin/users'));
});

test("another bot's group is not ours", (t) => {
  const policy = rules('User-agent: Googlebot\nDisallow: /\n\nUser-agent: KbAssistantBotX\nDisallow: /');
  t.true(allowed(policy, '/a'));
});

test('a group may name several agents, and our groups merge', (t) => {
  const policy = rules(
    ['User-agent: Foo', 'User-agent: KbAssistantBot', 'Disallow: /x', '', 'User-agent: KbAssistantBot', 'Disallow: /y'].join(
      '\n',
    ),
  );
  t.false(allowed(policy, '/x'));
  t.false(allowed(policy, '/y/z'));
  t.true(allowed(policy, '/z'));
});

test('an empty group of ours allows everything, whatever * says', (t) => {
  const policy = rules('User-agent: *\nDisallow: /\n\nUser-agent: KbAssistantBot\nDisallow:');
  t.true(allowed(policy, '/anything'));
});

test('the longest match wins: Allow beating Disallow, and the reverse', (t) => {
  const policy = rules(
    ['User-agent: *', 'Disallow: /docs/', 'Allow: /docs/public/', 'Allow: /shop/', 'Disallow: /shop/cart'].join('\n'),
  );
  t.true(allowed(policy, '/docs/public/a'));
  t.false(allowed(policy, '/docs/private/a'));
  t.false(allowed(policy, '/docs/'));
  t.true(allowed(policy, '/shop/items'));
  t.false(allowed(policy, '/shop/cart/1'));
});

test('on a tie, Allow wins', (t) => {
  const policy = rules('User-agent: *\nDisallow: /page\nAllow: /page');
  t.true(allowed(policy, '/page'));
});

test('* and $ in patterns', (t) => {
  const policy = rules(
    [
      'User-agent: KbAssistantBot',
      'Disallow: /*.pdf$',
      'Disallow: /*?sessionid=',
      'Disallow: /search$',
      'Allow: /*/public/*.pdf$',
    ].join('\n'),
  );
  t.false(allowed(policy, '/files/a.pdf'));
  t.true(allowed(policy, '/files/a.pdf?download=1'));
  t.true(allowed(policy, '/files/public/a.pdf'));
  t.false(allowed(policy, '/a?sessionid=3'));
  t.true(allowed(policy, '/a?session=3'));
  t.false(allowed(policy, '/search'));
  t.true(allowed(policy, '/search/results'));
});

test('paths are case-sensitive and percent-encoding is compared alike', (t) => {
  const policy = rules('User-agent: *\nDisallow: /Private\nDisallow: /café');
  t.false(allowed(policy, '/Private/a'));
  t.true(allowed(policy, '/private/a'));
  t.false(allowed(policy, '/caf%C3%A9'));
  t.false(allowed(policy, '/caf%c3%a9'));
});

test('comments, CRLF and blank lines are tolerated, a byte-order mark too', (t) => {
  const policy = rules('\uFEFFUser-agent: KbAssistantBot # us\r\nDisallow: /a # not this\r\n\r\n# the end\r\n');
  t.false(allowed(policy, '/a'));
  t.true(allowed(policy, '/b'));
});

test('an empty file allows everything', (t) => {
  const policy = rules('');
  t.is(policy.state, 'rules');
  t.true(allowed(policy, '/a'));
  t.deepEqual(policy.sitemaps, []);
  t.is(policy.crawlDelaySeconds, undefined);
});

test('a URL on another origin is never allowed by this file', (t) => {
  const policy = rules('User-agent: *\nAllow: /');
  t.true(policy.allows('https://example.com/a'));
  t.false(policy.allows('https://other.example/a'));
  t.false(policy.allows('http://example.com/a'));
  t.false(policy.allows('https://example.com:8443/a'));
  t.false(policy.allows('https://www.example.com/a'));
});

test('Crawl-delay: ours, else the * group', (t) => {
  t.is(rules('User-agent: *\nCrawl-delay: 5\n\nUser-agent: KbAssistantBot\nCrawl-delay: 2').crawlDelaySeconds, 2);
  t.is(rules('User-agent: *\nCrawl-delay: 5\n\nUser-agent: Googlebot\nCrawl-delay: 1').crawlDelaySeconds, 5);
  t.is(rules('User-agent: KbAssistantBot\nCrawl-delay: 0.5').crawlDelaySeconds, 0.5);
  t.is(rules('User-agent: Googlebot\nCrawl-delay: 9').crawlDelaySeconds, undefined);
});

test('Crawl-delay is capped at 60 seconds, and nonsense is none', (t) => {
  t.is(rules('User-agent: *\nCrawl-delay: 3600').crawlDelaySeconds, 60);
  t.is(rules('User-agent: *\nCrawl-delay: Infinity').crawlDelaySeconds, 60);
  t.is(rules('User-agent: *\nCrawl-delay: 60').crawlDelaySeconds, 60);
  for (const value of ['soon', '-5', '0', '']) {
    t.is(rules(`User-agent: *\nCrawl-delay: ${value}`).crawlDelaySeconds, undefined, value);
  }
});

test('Sitemap lines, wherever they stand', (t) => {
  const policy = rules(
    [
      'Sitemap: https://example.com/sitemap.xml',
      'User-agent: *',
      'Disallow: /x',
      'Sitemap: https://cdn.example.com/sitemaps/index.xml.gz',
    ].join('\n'),
  );
  t.deepEqual(policy.sitemaps, ['https://example.com/sitemap.xml', 'https://cdn.example.com/sitemaps/index.xml.gz']);
});

test('4xx: no robots.txt, everything allowed', (t) => {
  for (const status of [400, 401, 403, 404, 410, 451]) {
    const policy = parseRobots(robotsUrl, { status, text: 'User-agent: *\nDisallow: /' });
    t.is(policy.state, 'allow_all', String(status));
    t.true(allowed(policy, '/a'));
    t.deepEqual(policy.sitemaps, []);
    t.is(policy.reason, `${robotsUrl} answered ${status}: no robots.txt, so everything is allowed`);
  }
});

test('3xx left after redirects: unavailable, everything allowed', (t) => {
  t.is(parseRobots(robotsUrl, { status: 301, text: '' }).state, 'allow_all');
});

test('5xx and 429: everything disallowed, with the reason', (t) => {
  for (const status of [500, 502, 503, 504, 599, 429]) {
    const policy = parseRobots(robotsUrl, { status, text: 'User-agent: *\nAllow: /' });
    t.is(policy.state, 'disallow_all', String(status));
    t.false(allowed(policy, '/'));
    t.is(policy.reason, `${robotsUrl} answered ${status}: RFC 9309 treats the whole site as disallowed`);
  }
});

test('unreachable: everything disallowed, with the reason', (t) => {
  const policy = parseRobots(robotsUrl, 'unreachable');
  t.is(policy.state, 'disallow_all');
  t.false(allowed(policy, '/'));
  t.is(policy.reason, `${robotsUrl} could not be fetched: RFC 9309 treats the whole site as disallowed`);
});

test('a status RFC 9309 does not cover is disallowed', (t) => {
  for (const status of [0, 100, 600, 999]) t.is(parseRobots(robotsUrl, { status, text: '' }).state, 'disallow_all');
});

test('only the first 500 KiB is read, up to its last whole line', (t) => {
  const group = 'User-agent: *\nDisallow: /\n';
  // A comment filling the file to 13 bytes short of the limit: the next line crosses it after `Allow: /early`,
  // which, read cut, would allow `/early/…` where the whole line allows only `/early-access/`.
  const head = `${group}#${'.'.repeat(maxRobotsBytes - 13 - group.length - 2)}\n`;
  t.is(Buffer.byteLength(head), maxRobotsBytes - 13);
  const policy = rules(`${head}Allow: /early-access/\nAllow: /late\n`);
  t.false(allowed(policy, '/early/a'));
  t.false(allowed(policy, '/early-access/a'));
  t.false(allowed(policy, '/late'));
});

test('a file under 500 KiB is read whole', (t) => {
  const group = 'User-agent: *\nDisallow: /\n';
  const head = `${group}#${'.'.repeat(maxRobotsBytes - 100 - group.length - 2)}\n`;
  const policy = rules(`${head}Allow: /early-access/\n`);
  t.true(allowed(policy, '/early-access/a'));
  t.false(allowed(policy, '/early/a'));
});

test('an http robots.txt answers for the http origin', (t) => {
  const policy = parseRobots('http://127.0.0.1:8080/robots.txt', { status: 200, text: 'User-agent: *\nDisallow: /x' });
  t.false(policy.allows('http://127.0.0.1:8080/x'));
  t.true(policy.allows('http://127.0.0.1:8080/y'));
});
