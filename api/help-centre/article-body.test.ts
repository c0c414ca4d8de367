import test from 'ava';
import { renderArticleBody } from './article-body.js';

test('markdown becomes HTML: headings, emphasis, lists, tables, code and bare addresses as links', (t) => {
  const html = renderArticleBody(
    '## Returns\n\nSend it **unused** within *30 days*.\n\n- one\n- two\n\n| Plan | Limit |\n|---|---|\n| Free | 25 MB |\n\n`code` and https://shop.example/returns',
  );
  t.true(html.includes('<h2>Returns</h2>'));
  t.true(html.includes('<strong>unused</strong>'));
  t.true(html.includes('<em>30 days</em>'));
  t.true(html.includes('<li>one</li>'));
  t.true(html.includes('<td>25 MB</td>'));
  t.true(html.includes('<code>code</code>'));
  t.true(
    html.includes('<a href="https://shop.example/returns" rel="nofollow noopener noreferrer">https://shop.example/returns</a>'),
  );
});

test('an HTML body comes out as it went in, but for what the allowlist refuses', (t) => {
  const html = renderArticleBody('<h3>Setup</h3>\n<p>Open <b>Settings</b> &amp; pick a plan.</p>');
  t.is(html, '<h3>Setup</h3>\n<p>Open <b>Settings</b> &amp; pick a plan.</p>');
});

test('no script, style, frame, form, event handler or class of an author reaches the page', (t) => {
  const html = renderArticleBody(
    [
      '<script>alert(1)</script>',
      '<style>body { display: none }</style>',
      '<iframe src="https://evil.example"></iframe>',
      '<form action="https://evil.example"><input name="card"></form>',
      '<p class="x" style="color: red" onclick="alert(1)">Plain</p>',
      '<svg onload="alert(1)"></svg>',
    ].join('\n'),
  );
  for (const refused of ['<script', 'alert', '<style', '<iframe', '<form', '<input', 'class=', 'style=', 'onclick', '<svg'])
    t.false(html.includes(refused), refused);
  t.true(html.includes('<p>Plain</p>'));
});

test('links keep only http, https and mailto and open nothing with our page; images only over https', (t) => {
  const html = renderArticleBody(
    [
      '[bad](javascript:alert(1))',
      '<a href="javascript:alert(1)">also bad</a>',
      '<a href="data:text/html,x">data</a>',
      '<a href="mailto:help@shop.example" rel="opener" target="_blank">mail</a>',
      '<img src="http://shop.example/a.png" alt="plain http">',
      '<img src="https://shop.example/b.png" alt="secure" onerror="alert(1)">',
      '<img src="//shop.example/c.png" alt="relative">',
    ].join('\n\n'),
  );
  t.false(/href="(javascript|data):/.test(html), html);
  t.true(html.includes('[bad](javascript:alert(1))'), 'a refused markdown link stays text');
  t.true(html.includes('<a rel="nofollow noopener noreferrer">also bad</a>'), 'a refused address leaves the link text');
  t.true(html.includes('<a href="mailto:help@shop.example" rel="nofollow noopener noreferrer">mail</a>'));
  t.false(html.includes('target='));
  t.false(html.includes('plain http'), 'an image over plain http is left out whole');
  t.false(html.includes('relative'), 'so is a protocol-relative one');
  t.true(html.includes('<img src="https://shop.example/b.png" alt="secure" loading="lazy" />'));
});
