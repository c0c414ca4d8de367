import test from 'ava';
import { parseInline, parseLightMarkdown, safeHref, type Block, type Inline } from './src/widget/light-markdown.js';

const text = (value: string): Inline => ({ type: 'text', text: value });
const paragraph = (...children: Inline[]): Block => ({ type: 'paragraph', children });

/** Every token of a tree, depth first, so a test can ask "is there any link at all". */
function tokensOf(blocks: Block[]): Inline[] {
  const walk = (tokens: Inline[]): Inline[] =>
    tokens.flatMap((token) => ('children' in token ? [token, ...walk(token.children)] : [token]));
  return blocks.flatMap((block) => walk(block.type === 'paragraph' ? block.children : block.items.flat()));
}

/** The text a tree shows, markup gone: what a reader would see. */
function shownText(blocks: Block[]): string {
  return tokensOf(blocks)
    .map((token) =>
      token.type === 'text' || token.type === 'code' ? token.text : token.type === 'citation' ? `[${token.n}]` : '',
    )
    .join('');
}

test('plain text is one paragraph of text', (t) => {
  t.deepEqual(parseLightMarkdown('Returns are free within 30 days.'), [paragraph(text('Returns are free within 30 days.'))]);
  t.deepEqual(parseLightMarkdown(''), []);
  t.deepEqual(parseLightMarkdown('  \n\n  '), []);
});

test('a blank line separates paragraphs; a single line break stays a break', (t) => {
  t.deepEqual(parseLightMarkdown('First.\n\n\nSecond\nline.'), [
    paragraph(text('First.')),
    paragraph(text('Second'), { type: 'break' }, text('line.')),
  ]);
  t.deepEqual(parseLightMarkdown('Windows\r\n\r\nline ends'), [paragraph(text('Windows')), paragraph(text('line ends'))]);
});

test('bullets and numbered items become lists, also right after a paragraph line', (t) => {
  t.deepEqual(parseLightMarkdown('Steps:\n1. Open the page.\n2. Choose "Forgot password".\n\n- one\n- two'), [
    paragraph(text('Steps:')),
    { type: 'list', ordered: true, start: 1, items: [[text('Open the page.')], [text('Choose "Forgot password".')]] },
    { type: 'list', ordered: false, start: 1, items: [[text('one')], [text('two')]] },
  ]);
  t.like(parseLightMarkdown('3. third\n4. fourth')[0], { type: 'list', ordered: true, start: 3 });
  t.deepEqual(
    parseLightMarkdown('- a\n1. b').map((block) => block.type === 'list' && block.ordered),
    [false, true],
  );
  t.deepEqual(parseLightMarkdown('3.5 kg is the weight'), [paragraph(text('3.5 kg is the weight'))]);
  t.deepEqual(parseLightMarkdown('-not a bullet'), [paragraph(text('-not a bullet'))]);
});

test('bold, italic and code', (t) => {
  t.deepEqual(parseInline('**Bold** and _italic_ and `code`'), [
    { type: 'strong', children: [text('Bold')] },
    text(' and '),
    { type: 'emphasis', children: [text('italic')] },
    text(' and '),
    { type: 'code', text: 'code' },
  ]);
  t.deepEqual(parseInline('**bold with _italic_ inside**'), [
    { type: 'strong', children: [text('bold with '), { type: 'emphasis', children: [text('italic')] }, text(' inside')] },
  ]);
  t.deepEqual(parseInline('**_both_**'), [{ type: 'strong', children: [{ type: 'emphasis', children: [text('both')] }] }]);
});

test('code keeps its content as written, markup and all', (t) => {
  t.deepEqual(parseInline('Run `npm i **x** [1] _y_` now'), [
    text('Run '),
    { type: 'code', text: 'npm i **x** [1] _y_' },
    text(' now'),
  ]);
});

test('underscores inside words and lone asterisks stay text', (t) => {
  t.deepEqual(parseInline('snake_case_name and __init__ish'), [text('snake_case_name and __init__ish')]);
  t.deepEqual(parseInline('5 * 3 * 2 = 30'), [text('5 * 3 * 2 = 30')]);
  t.deepEqual(parseInline('_ spaced _'), [text('_ spaced _')]);
});

test('links to http, https and mailto', (t) => {
  t.deepEqual(parseInline('see [the guide](https://example.com/guide?a=1) now'), [
    text('see '),
    { type: 'link', href: 'https://example.com/guide?a=1', children: [text('the guide')] },
    text(' now'),
  ]);
  t.like(parseInline('[Shop](http://shop.example)')[0], { type: 'link', href: 'http://shop.example/' });
  t.like(parseInline('[Mail us](mailto:help@shop.example)')[0], { type: 'link', href: 'mailto:help@shop.example' });
  t.deepEqual(parseInline('[**Bold** label](https://x.example)'), [
    { type: 'link', href: 'https://x.example/', children: [{ type: 'strong', children: [text('Bold')] }, text(' label')] },
  ]);
});

test('citation markers, alone and adjacent', (t) => {
  t.deepEqual(parseInline('Free returns.[1][2] See [3].'), [
    text('Free returns.'),
    { type: 'citation', n: 1 },
    { type: 'citation', n: 2 },
    text(' See '),
    { type: 'citation', n: 3 },
    text('.'),
  ]);
  t.deepEqual(parseInline('[0] [x] [1234] [1, 2]'), [text('[0] [x] [1234] [1, 2]')]);
  t.deepEqual(parseInline('**Fast.** [1]')[2], { type: 'citation', n: 1 });
});

test('markup is never HTML: tags stay text, whatever they are', (t) => {
  for (const hostile of [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">x</a>',
    '**<b>bold</b>**',
    '<svg/onload=alert(1)>',
    '&lt;script&gt;',
  ]) {
    const blocks = parseLightMarkdown(hostile);
    t.is(shownText(blocks), hostile.replace(/\*\*/g, ''), hostile);
    t.false(
      tokensOf(blocks).some((token) => token.type === 'link'),
      hostile,
    );
  }
});

test('links to anything but http, https and mailto are not links', (t) => {
  for (const hostile of [
    '[x](javascript:alert(1))',
    '[x](javascript:alert)',
    '[x](JavaScript:alert%281%29)',
    '[x](java\tscript:alert)',
    '[x](%20javascript:alert)',
    '[x](data:text/html;base64,PHNjcmlwdD4=)',
    '[x](vbscript:msgbox)',
    '[x](/relative/path)',
    '[x](//evil.example)',
    '[x](ftp://files.example)',
    '[x](file:///etc/passwd)',
  ]) {
    const blocks = parseLightMarkdown(hostile);
    t.false(
      tokensOf(blocks).some((token) => token.type === 'link'),
      hostile,
    );
    t.true(shownText(blocks).includes('x'), hostile);
  }
  t.deepEqual(parseInline('[Click](javascript:alert) now'), [text('Click now')]);
});

test('unbalanced and empty markers stay as they were written', (t) => {
  for (const input of [
    '**bold',
    'bold**',
    '_italic',
    '`code',
    '****',
    '**  **',
    '[label](https://x.example',
    '[label]',
    '[',
    ']()',
    '**a _b** c_',
  ]) {
    const blocks = parseLightMarkdown(input);
    t.notThrows(() => shownText(blocks), input);
    t.false(
      tokensOf(blocks).some((token) => token.type === 'link'),
      input,
    );
  }
  t.deepEqual(parseInline('**bold'), [text('**bold')]);
  t.deepEqual(parseInline('`code'), [text('`code')]);
  t.deepEqual(parseInline('****'), [text('****')]);
  t.deepEqual(parseInline('[label]'), [text('[label]')]);
});

test('long runs of unbalanced markers parse into text, never into a link', (t) => {
  const hostile = '**_`['.repeat(1000) + '](javascript:x)';
  const blocks = parseLightMarkdown(hostile);
  t.false(tokensOf(blocks).some((token) => token.type === 'link'));
  t.true(shownText(blocks).includes('javascript:x'), 'the would-be target shows as text');
});

test('safeHref accepts only absolute URLs of the allowed schemes', (t) => {
  t.is(safeHref('https://example.com/a b'), 'https://example.com/a%20b');
  t.is(safeHref('mailto:help@example.com'), 'mailto:help@example.com');
  t.is(safeHref('mailto:help@example.com', ['http:', 'https:']), undefined);
  t.is(safeHref('javascript:alert(1)'), undefined);
  t.is(safeHref(' JAVASCRIPT:alert(1)'), undefined);
  t.is(safeHref('/help'), undefined);
  t.is(safeHref(''), undefined);
});
