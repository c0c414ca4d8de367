import test from 'ava';
import { normalizeText, normalizeTitle } from './normalize.js';

const shopDescription = `<meta charset="utf-8">
<style>.product-desc { color: #333; } li::before { content: "•"; }</style>
<script type="application/ld+json">{"@type": "Product", "name": "Trail Runner 2"}</script>
<h2>Trail Runner&nbsp;2 &ndash; Waterproof</h2>
<p>Light, grippy &amp; <strong>100% waterproof</strong>. Now only &euro;89.95&nbsp;(was &#8364;119)!</p>
<p><img src="https://cdn.shop.example/trail-runner.jpg" alt="Trail Runner 2 in blue"></p>
<ul>
  <li>Upper: recycled mesh</li>
  <li>Sole: Vibram&reg; Megagrip</li>
  <li>Drop: 6&nbsp;mm</li>
</ul>
<table>
  <thead><tr><th>EU size</th><th>Length (cm)</th></tr></thead>
  <tbody>
    <tr><td>42</td><td>26.5</td></tr>
    <tr><td>43</td><td>27.2</td></tr>
  </tbody>
</table>
<p>See our <a href="https://shop.example/sizing">size guide</a> before ordering.</p>
<button class="btn">Add to cart</button>`;

const cmsArticle = `<!DOCTYPE html>
<html lang="en">
<head>
  <title>How to reset your password | Help Center</title>
  <style>body { font-family: sans-serif; }</style>
  <script>window.dataLayer = window.dataLayer || []; if (a < b) { track(); }</script>
</head>
<body>
  <article>
    <h1>How to reset your password</h1>
    <p class="lead">Forgot your password? Don&#39;t worry &mdash; it happens.</p>
    <!-- TODO: add screenshots -->
    <h2>Steps</h2>
    <ol>
      <li>Open <a href="/login">the login page</a>.</li>
      <li>Click <em>Forgot password</em>.</li>
      <li>Check your inbox&hellip;</li>
    </ol>
    <blockquote>Tip: links expire after 24&nbsp;hours.</blockquote>
    <p>Still stuck?<br>Contact <a href="mailto:support@example.com">support@example.com</a>.</p>
  </article>
  <script src="/analytics.js"></script>
</body>
</html>`;

test('a shop product description becomes one line per block, without markup, media or scripts', (t) => {
  t.is(
    normalizeText(shopDescription),
    [
      'Trail Runner 2 – Waterproof',
      'Light, grippy & 100% waterproof. Now only €89.95 (was €119)!',
      '- Upper: recycled mesh',
      '- Sole: Vibram® Megagrip',
      '- Drop: 6 mm',
      'EU size | Length (cm)',
      '42 | 26.5',
      '43 | 27.2',
      'See our size guide before ordering.',
    ].join('\n'),
  );
});

test('a CMS article keeps its headings as written and its links as their text', (t) => {
  const text = normalizeText(cmsArticle);
  t.is(
    text,
    [
      'How to reset your password',
      "Forgot your password? Don't worry — it happens.",
      'Steps',
      '1. Open the login page.',
      '2. Click Forgot password.',
      '3. Check your inbox…',
      'Tip: links expire after 24 hours.',
      'Still stuck?',
      'Contact support@example.com.',
    ].join('\n'),
  );
  for (const dropped of ['Help Center', 'dataLayer', 'font-family', 'TODO', '/login', 'mailto', '[']) {
    t.false(text.includes(dropped), dropped);
  }
});

test('plain text with comparisons and angle brackets comes through unchanged', (t) => {
  const text = 'Free shipping if price < 10 kg and a<b.\nUse x <= y, Vector<int> and <3 in code; 5 > 3.';
  t.is(normalizeText(text), text);
});

test('markdown-ish text is left alone apart from blank lines', (t) => {
  t.is(
    normalizeText(
      '# Returns\n\n* Items can be returned within **30 days**.\n* Use `RETURN-30` at checkout.\n\n> Sale items are final.',
    ),
    '# Returns\n* Items can be returned within **30 days**.\n* Use `RETURN-30` at checkout.\n> Sale items are final.',
  );
});

test('entities are decoded in plain text too', (t) => {
  t.is(
    normalizeText('Fish &amp; Chips&nbsp;&nbsp;for &#163;5 &#x2603; &ndash; &lt;b&gt; stays text'),
    'Fish & Chips for £5 ☃ – <b> stays text',
  );
});

test('in plain text only terminated entities are decoded, so URLs and stray ampersands survive', (t) => {
  const text = 'Order at https://shop.example/?id=7&para=2&copy=1 (AT&T, R&D, &bogus;)';
  t.is(normalizeText(text), text);
  t.is(normalizeText('Tom &amp;amp; Jerry'), 'Tom &amp; Jerry');
});

test('plain text with a few inline tags keeps its line structure', (t) => {
  t.is(
    normalizeText('Great for trails!\n\n<strong>Features</strong>\n- grippy &amp; light\n- <em>waterproof</em>'),
    'Great for trails!\nFeatures\n- grippy & light\n- waterproof',
  );
});

test('runs of spaces and tabs become one space and blank-line runs one newline', (t) => {
  t.is(
    normalizeText(
      '  First\t\tline  with   gaps \r\n\r\n\r\n   Second\u00a0\u00a0line\u3000end \n\n\n\nThird\rFourth\u2028Fifth  ',
    ),
    'First line with gaps\nSecond line end\nThird\nFourth\nFifth',
  );
  t.is(
    normalizeText('<p>  one  </p>\n\n\n<p>two&nbsp;&nbsp;&nbsp;three</p><div><br><br><br></div><p>four</p>'),
    'one\ntwo three\nfour',
  );
});

test('control and zero-width characters are removed, also when they arrive as entities', (t) => {
  t.is(
    normalizeText('zero\u200bwidth \ufeffbom soft\u00adhyphen bell\u0007 nul\u0000 del\u007f c1\u0085x'),
    'zerowidth bom softhyphen bell nul del c1\nx',
  );
  t.is(normalizeText('<p>no&#8203;break &#xFEFF;here&#7;</p>'), 'nobreak here');
  t.is(normalizeText('join&#8204;er &#x200D;x'), 'joiner x');
  t.is(normalizeText('cut \ud83d pair 😀'), 'cut pair 😀');
});

test('empty and whitespace-only input becomes an empty string', (t) => {
  t.is(normalizeText(''), '');
  t.is(normalizeText(' \n\t\u200b\n '), '');
  t.is(normalizeText('<p> </p><script>alert(1)</script>'), '');
});

test('titles follow the same rules on a single line', (t) => {
  t.is(normalizeTitle('  Fish &amp; Chips\n\n – the\tclassic  '), 'Fish & Chips – the classic');
  t.is(normalizeTitle('<h1>Trail Runner&nbsp;2</h1><p>Waterproof</p>'), 'Trail Runner 2 Waterproof');
  t.is(normalizeTitle('Sizes < 40'), 'Sizes < 40');
});
