import test from 'ava';
import { formatForWidget } from './widget.js';

/** Something that could open an HTML tag: `<` followed by a letter, `/`, `!` or `?`. */
const TAG_OPENING = /<[A-Za-z/!?]/;

/** Every link target in the output is http, https or mailto. */
function assertSafeLinks(t: import('ava').ExecutionContext, output: string) {
  for (const match of output.matchAll(/\]\(\s*([^\s)]*)/g)) {
    t.regex(match[1]!, /^(?:https?:\/\/[^\s/]|mailto:\S)/, `unsafe link target in: ${output}`);
  }
}

test('the extractive composer’s text passes through unchanged', (t) => {
  const text =
    'Returns are free within 30 days of delivery. Refunds take 5 business days. [1]\n\nShipping is free on orders over €50; below that it costs €4.95. [2]';
  t.is(formatForWidget(text), text);
  const list = 'Reset your password in a few steps:\n1. Open the login page.\n2. Choose "Forgot password". [1]';
  t.is(formatForWidget(list), list);
});

test('the widget subset itself is kept as it is', (t) => {
  const text =
    '**Bold** and _italic_ and `code`, see [the guide](https://example.com/guide) [1][2].\n\n- one\n- two\n\n1. first\n2. second';
  t.is(formatForWidget(text), text);
});

test('paragraphs: at most one blank line between them, trailing spaces and outer blank lines trimmed', (t) => {
  t.is(formatForWidget('\n\nFirst paragraph.   \n\n\n\n\nSecond paragraph.\t\n\n\n'), 'First paragraph.\n\nSecond paragraph.');
  t.is(formatForWidget('Windows\r\nline\r\n\r\nends'), 'Windows\nline\n\nends');
  t.is(formatForWidget(''), '');
  t.is(formatForWidget('   \n\n  '), '');
});

test('headings become a bold line of their own', (t) => {
  t.is(formatForWidget('# Returns\nYou can return items.'), '**Returns**\nYou can return items.');
  t.is(formatForWidget('Intro.\n## Sizes ##\nText.'), 'Intro.\n\n**Sizes**\nText.');
  t.is(formatForWidget('###### **Already bold** heading'), '**Already bold heading**');
  t.is(formatForWidget('Shipping\n========\nFast.'), '**Shipping**\nFast.');
  t.is(formatForWidget('#\nText'), 'Text');
  t.is(formatForWidget('#hashtag stays text'), '#hashtag stays text');
  t.is(formatForWidget('####### seven hashes are text'), '####### seven hashes are text');
  t.is(formatForWidget('## C# and F# ##'), '**C# and F#**', 'a closing sequence after a space goes, a # in a word stays');
  t.is(formatForWidget('# Issue#'), '**Issue#**');
  t.is(formatForWidget('### ###\nText'), 'Text', 'only a closing sequence: an empty heading');
});

test('emphasis: both bold styles become **bold**, both italic styles _italic_', (t) => {
  t.is(formatForWidget('**a** __b__ *c* _d_ ***e***'), '**a** **b** _c_ _d_ **_e_**');
  t.is(formatForWidget('**bold with *italic* inside**'), '**bold with _italic_ inside**');
  t.is(formatForWidget('snake_case_name and __init__ish'), 'snake_case_name and __init__ish');
  t.is(formatForWidget('5 * 3 * 2 = 30 and 2*3*4 = 24'), '5 * 3 * 2 = 30 and 2*3*4 = 24');
  t.is(formatForWidget('a ~~struck~~ word'), 'a ~~struck~~ word');
  t.is(formatForWidget('\\*not italic\\* and \\_plain\\_'), '*not italic* and _plain_');
});

test('lists: bullets become "- ", numbered items "1. ", nesting is flattened', (t) => {
  t.is(formatForWidget('* one\n+ two\n• three\n  - nested'), '- one\n- two\n- three\n- nested');
  t.is(formatForWidget('1) first\n2. second\n   3) third'), '1. first\n2. second\n3. third');
  t.is(formatForWidget('- \n- item'), '- item');
  t.is(formatForWidget('3.5 kg is the weight'), '3.5 kg is the weight');
});

test('inline code keeps its content untouched', (t) => {
  t.is(formatForWidget('Run `npm i **x** [1,2]` now'), 'Run `npm i **x** [1,2]` now');
  t.is(formatForWidget('Use ``a `tick` b`` here'), 'Use a `tick` b here');
});

test('links are kept only for http, https and mailto', (t) => {
  t.is(formatForWidget('[Shop](https://shop.example/a?b=1)'), '[Shop](https://shop.example/a?b=1)');
  t.is(formatForWidget('[Shop](http://shop.example)'), '[Shop](http://shop.example)');
  t.is(formatForWidget('[Mail us](mailto:help@shop.example)'), '[Mail us](mailto:help@shop.example)');
  t.is(formatForWidget('[Click](javascript:alert(1)) now'), 'Click now');
  t.is(formatForWidget('[Click](JavaScript:alert(document.cookie))'), 'Click');
  t.is(formatForWidget('[Pic](data:text/html;base64,PHNjcmlwdD4=)'), 'Pic');
  t.is(formatForWidget('[VB](vbscript:msgbox(1))'), 'VB');
  t.is(formatForWidget('[Relative](/help/returns)'), 'Relative');
  t.is(formatForWidget('[Protocol-relative](//evil.example)'), 'Protocol-relative');
  t.is(formatForWidget('[FTP](ftp://files.example/x)'), 'FTP');
  // Not even read as a link (whitespace in the target), so it stays text, with its `](` broken up.
  t.is(formatForWidget('[Tab](java\tscript:alert(1))'), '[Tab] (java\tscript:alert(1))');
});

test('link details: titles dropped, scheme lower-cased, parentheses and spaces encoded, empty labels filled', (t) => {
  t.is(formatForWidget('[Docs](https://x.example/docs "The docs")'), '[Docs](https://x.example/docs)');
  t.is(
    formatForWidget('[Wiki](https://en.wikipedia.org/wiki/Tent_(camping))'),
    '[Wiki](https://en.wikipedia.org/wiki/Tent_%28camping%29)',
  );
  t.is(formatForWidget('[Spaced](<https://x.example/a b>)'), '[Spaced](https://x.example/a%20b)');
  t.is(formatForWidget('[Loud](HTTPS://X.EXAMPLE/A)'), '[Loud](https://X.EXAMPLE/A)');
  t.is(formatForWidget('[](https://x.example)'), '[https://x.example](https://x.example)');
  t.is(formatForWidget('[**Bold label**](https://x.example)'), '[Bold label](https://x.example)');
  t.is(formatForWidget('[Site](www.shop.example)'), '[Site](https://www.shop.example)');
});

test('bare http(s) URLs become links, without the punctuation around them', (t) => {
  t.is(formatForWidget('See https://shop.example/a_b_c.'), 'See [https://shop.example/a_b_c](https://shop.example/a_b_c).');
  t.is(formatForWidget('(see https://x.example/page)'), '(see [https://x.example/page](https://x.example/page))');
  t.is(
    formatForWidget('Wiki https://en.wikipedia.org/wiki/Tent_(camping), ok'),
    'Wiki [https://en.wikipedia.org/wiki/Tent_(camping)](https://en.wikipedia.org/wiki/Tent_%28camping%29), ok',
  );
  t.is(formatForWidget('**https://x.example**'), '**[https://x.example](https://x.example)**');
  t.is(formatForWidget('Visit www.shop.example today'), 'Visit [www.shop.example](https://www.shop.example) today');
  t.is(formatForWidget('javascript:alert(1) stays text'), 'javascript:alert(1) stays text');
  t.is(formatForWidget('<https://x.example/a>'), '[https://x.example/a](https://x.example/a)');
  t.is(formatForWidget('<help@shop.example>'), '[help@shop.example](mailto:help@shop.example)');
});

test('images become a link to the image when it is http(s), else their alt text', (t) => {
  t.is(formatForWidget('![Size chart](https://cdn.example/sizes.png)'), '[Size chart](https://cdn.example/sizes.png)');
  t.is(formatForWidget('![](https://cdn.example/sizes.png)'), '[https://cdn.example/sizes.png](https://cdn.example/sizes.png)');
  t.is(formatForWidget('![Chart](data:image/png;base64,AAAA)'), 'Chart');
  t.is(formatForWidget('![Pic](javascript:alert(1))'), 'Pic');
  t.is(formatForWidget('![Pic](mailto:a@b.example)'), 'Pic');
  t.is(formatForWidget('<img src="https://cdn.example/a.png" alt="Tent">'), '[Tent](https://cdn.example/a.png)');
  t.is(formatForWidget('<img src=x onerror="alert(1)" alt="Broken">'), 'Broken');
});

test('citation markers are normalised to adjacent [n]', (t) => {
  t.is(formatForWidget('Free returns [1, 2].'), 'Free returns [1][2].');
  t.is(formatForWidget('Free returns [1] [2] [3].'), 'Free returns [1][2][3].');
  t.is(formatForWidget('Free returns [1;3].'), 'Free returns [1][3].');
  t.is(formatForWidget('Free returns [^1].'), 'Free returns [1].');
  t.is(formatForWidget('Free returns [1-3].'), 'Free returns [1][2][3].');
  t.is(formatForWidget('Free returns [Source 2] and [source: 3].'), 'Free returns [2] and [3].');
  t.is(formatForWidget('Free returns [ 2 ][2].'), 'Free returns [2].');
  t.is(formatForWidget('Not citations: [0], [2024], [x], [3-1].'), 'Not citations: [0], [2024], [x], [3-1].');
});

test('tables become one line per row, cells joined by " – ", separator rows dropped', (t) => {
  const table = 'Sizes:\n\n| EU size | Length (cm) |\n|:--------|-----------:|\n| 42 | 26.5 |\n| 43 | **27.2** |\n\nAfter.';
  t.is(formatForWidget(table), 'Sizes:\n\nEU size – Length (cm)\n42 – 26.5\n43 – **27.2**\n\nAfter.');
  t.is(formatForWidget('Size | Price\n--- | ---\nS | 10\nM |  \n'), 'Size – Price\nS – 10\nM');
  t.is(formatForWidget('| Shell \\| Fly | Yes |\n|---|---|'), 'Shell | Fly – Yes');
  t.is(
    formatForWidget('Text right before\n| a | b |\n|---|---|\n| 1 | 2 |\nText right after'),
    'Text right before\n\na – b\n1 – 2\n\nText right after',
  );
  t.is(formatForWidget('A pipe | in prose is not a table.'), 'A pipe | in prose is not a table.');
});

test('code fences keep their content as plain lines', (t) => {
  const fenced = 'Run this:\n```bash\n# install\nnpm install  \n  --save x\n```\nDone.';
  t.is(formatForWidget(fenced), 'Run this:\n\n# install\nnpm install\n  --save x\n\nDone.');
  t.is(formatForWidget('~~~\n| a | b |\n- item\n~~~'), '| a | b |\n- item');
  t.is(formatForWidget('```\nunclosed\n## not a heading'), 'unclosed\n## not a heading');
});

test('HTML: tags removed with their text kept, <br> is a new line, block elements are paragraphs', (t) => {
  t.is(formatForWidget('<p>Hello<br>World</p><p>Second <span class="x">para</span>.</p>'), 'Hello\nWorld\n\nSecond para.');
  t.is(
    formatForWidget('<div><strong>Bold</strong> <em>it</em> <code>x</code> <del>old</del></div>'),
    '**Bold** _it_ `x` ~~old~~',
  );
  t.is(formatForWidget('<h2>Returns</h2><p>Within 30 days.</p>'), '**Returns**\n\nWithin 30 days.');
  t.is(formatForWidget('<ul>\n  <li>One</li>\n  <li>Two</li>\n</ul>'), '- One\n- Two');
  t.is(
    formatForWidget('<table>\n<thead><tr><th>Size</th><th>Price</th></tr></thead>\n<tr><td>S</td><td>10</td></tr>\n</table>'),
    'Size – Price\nS – 10',
  );
  t.is(formatForWidget('<a href="https://x.example/y">the <b>guide</b></a>'), '[the guide](https://x.example/y)');
  t.is(formatForWidget('<a href="javascript:steal()">Click</a>'), 'Click');
  t.is(formatForWidget('<pre><code>line 1\n  line 2</code></pre>'), 'line 1\n  line 2');
  t.is(formatForWidget('A<!-- hidden -->B'), 'AB');
});

test('<script> and <style> elements are removed with their content', (t) => {
  t.is(formatForWidget('Hi<script>alert("x")</script> there'), 'Hi there');
  t.is(formatForWidget('Hi<SCRIPT type="text/javascript">\nsteal()\n</SCRIPT>there'), 'Hithere');
  t.is(formatForWidget('<style>.a { color: red }</style>Styled'), 'Styled');
  t.is(formatForWidget('Before <script>never closed'), 'Before');
});

test('entities are decoded, and an encoded tag does not survive either', (t) => {
  t.is(formatForWidget('Fish &amp; chips&nbsp;for &#8364;5 &hellip;'), 'Fish & chips for €5 …');
  t.is(formatForWidget('&lt;script&gt;alert(1)&lt;/script&gt;Safe'), 'Safe');
  t.is(formatForWidget('&lt;b&gt;bold&lt;/b&gt;'), '**bold**');
  t.is(formatForWidget('Unknown &copy; and &foo; stay'), 'Unknown &copy; and &foo; stay');
});

test('text that merely looks like a tag keeps its characters but cannot open one', (t) => {
  t.is(formatForWidget('Use Vector<int> here'), 'Use Vector< int> here');
  t.is(formatForWidget('if a < b and c > d'), 'if a < b and c > d');
  t.is(formatForWidget('```\nif (a<b && c>d) {}\n```'), 'if (a< b && c>d) {}');
  t.is(formatForWidget('x <3 y'), 'x <3 y');
  t.is(
    formatForWidget('<custom-element onclick="x()">text</custom-element>'),
    '< custom-element onclick="x()">text< /custom-element>',
  );
});

test('blockquotes and rules: the quote marker goes, a rule is a paragraph break', (t) => {
  t.is(formatForWidget('> Quoted **text**\n> - item'), 'Quoted **text**\n- item');
  t.is(formatForWidget('Above\n\n---\n\nBelow\n***\nEnd'), 'Above\n\nBelow\n\nEnd');
});

test('reference definitions are shown, not hidden', (t) => {
  t.is(
    formatForWidget('See [1].\n\n[1]: https://x.example/ref "Ref"'),
    'See [1].\n\n[1] [https://x.example/ref](https://x.example/ref)',
  );
  t.is(formatForWidget('[x]: javascript:alert(1)'), '[x] javascript:alert(1)');
  t.is(formatForWidget('[Note]: this is prose'), '[Note]: this is prose');
});

test('no HTML tag and no unsafe link survives, whatever the input', (t) => {
  const nasty = [
    '<img src=x onerror=alert(1)>',
    '<svg/onload=alert(1)>',
    '<iframe src="javascript:alert(1)"></iframe>',
    '<a href="javascript:alert(1)">x</a>',
    '<<script>script>alert(1)<</script>/script>',
    '<scr<script>ipt>alert(1)</script>',
    '<div\nonclick="x">multi-line tag</div>',
    '&lt;img src=x onerror=alert(1)&gt;',
    '&#60;script&#62;alert(1)&#60;/script&#62;',
    '\\[x\\](javascript:alert(1))',
    '[x](javascript:alert(1)',
    '[a [nested] label](javascript:alert(1))',
    '![x](javascript:alert(1))',
    '[x](  javascript:alert(1)  )',
    '[x](<javascript:alert(1)>)',
    '[x](data:text/html,<script>alert(1)</script>)',
    '`<script>alert(1)</script>` in code',
    '```html\n<button onclick="steal()">Buy</button>\n```',
    '<!DOCTYPE html><html><head><title>T</title></head><body>Body</body></html>',
    '<?xml version="1.0"?><note>hi</note>',
    '<!-- unclosed comment <script>',
    '<b onmouseover=alert(1)>hover</b>',
    '<unknown-tag>text',
    '< /script>',
    '</ script>',
  ];
  for (const input of nasty) {
    const output = formatForWidget(input);
    t.false(TAG_OPENING.test(output), `${JSON.stringify(input)} → ${JSON.stringify(output)}`);
    assertSafeLinks(t, output);
    t.false(/javascript:alert|onerror=|onload=/.test(output) && /\]\(/.test(output), output);
  }
});

test('a realistic LLM answer', (t) => {
  const llm = [
    '## Returning an item',
    '',
    'You can return **most items** within __30 days__ of delivery [1, 2]. Here is how:',
    '',
    '1. Log in to [your account](https://shop.example/account).',
    '2. Choose *Return an item* and print the label [2].',
    '',
    '| Item | Return window |',
    '|------|---------------|',
    '| Shoes | 30 days |',
    '| Tents | 60 days |',
    '',
    '<b>Note:</b> opened hygiene products cannot be returned.',
    '',
    '![Return label](https://cdn.shop.example/label.png)',
    '',
    'Questions? Write to <help@shop.example> or see https://shop.example/faq.',
  ].join('\n');
  t.is(
    formatForWidget(llm),
    [
      '**Returning an item**',
      '',
      'You can return **most items** within **30 days** of delivery [1][2]. Here is how:',
      '',
      '1. Log in to [your account](https://shop.example/account).',
      '2. Choose _Return an item_ and print the label [2].',
      '',
      'Item – Return window',
      'Shoes – 30 days',
      'Tents – 60 days',
      '',
      '**Note:** opened hygiene products cannot be returned.',
      '',
      '[Return label](https://cdn.shop.example/label.png)',
      '',
      'Questions? Write to [help@shop.example](mailto:help@shop.example) or see [https://shop.example/faq](https://shop.example/faq).',
    ].join('\n'),
  );
});

test('formatting the output again changes nothing (outside code)', (t) => {
  const inputs = [
    '# Title\nSome *text* with [a link](https://x.example) [1, 2] and https://y.example/z.',
    '| a | b |\n|---|---|\n| 1 | 2 |',
    '<p>Hello <b>there</b></p><ul><li>x</li></ul>',
    'Vector<int> and [bad](javascript:x)',
  ];
  for (const input of inputs) {
    const once = formatForWidget(input);
    t.is(formatForWidget(once), once, input);
  }
});

// Inputs that make a backtracking pattern explode; ava's timeout fails the test if one hangs.
test('long and pathological inputs are formatted without a tag surviving', (t) => {
  const inputs = [
    '**x '.repeat(30_000),
    '<a' + ' x'.repeat(50_000),
    '['.repeat(20_000) + '](x'.repeat(20_000),
    'https://a.example/' + ')'.repeat(20_000),
    '`a '.repeat(30_000),
    '| a '.repeat(30_000) + '\n|---|',
    // A heading with a long run of blanks before its end took 2.8 s at 32,000 (finding F25): 128,000 would take most of a minute.
    '# a' + ' '.repeat(128_000) + 'b',
    '# a' + '\t'.repeat(128_000) + 'b',
    '# a' + ' '.repeat(128_000) + '\r#',
  ];
  for (const input of inputs) {
    const output = formatForWidget(input);
    t.notRegex(output, /<[a-z/!?]/i, input.slice(0, 10));
    t.true(output.length <= input.length * 2, input.slice(0, 10));
  }
});
