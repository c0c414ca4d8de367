import test from 'ava';
import { formatForMessaging, labelAsAi, type MessagingFormatOptions } from './messaging.js';
import { stringsFor } from '#answering/locales.js';
import type { Citation } from '#answering/types.js';

const EN_LABEL = `_${stringsFor('en').aiLabel}_`;
const DE_LABEL = `_${stringsFor('de').aiLabel}_`;

function citation(n: number, title: string, url: string | null = `https://shop.example/${n}`): Citation {
  return { n, title, url, externalId: `item-${n}`, sourceType: 'page' };
}

/** The body alone: no citations, so the message is the body, a blank line and the label. */
function body(text: string, options?: MessagingFormatOptions): string {
  const message = formatForMessaging({ text, citations: [] }, 'en', options);
  if (!message.endsWith(`\n\n${EN_LABEL}`)) throw new Error(`no label at the end: ${message}`);
  return message.slice(0, -(EN_LABEL.length + 2));
}

test('an answer with citations: body without markers, sources block, AI label last', (t) => {
  const answer = {
    text: 'Returns are **free** within 30 days [1]. Refunds take 5 business days [2].',
    citations: [citation(1, 'Returns policy'), citation(2, 'Refunds', null)],
  };
  t.is(
    formatForMessaging(answer, 'en'),
    [
      'Returns are *free* within 30 days. Refunds take 5 business days.',
      '',
      '_Sources:_',
      '1. Returns policy: https://shop.example/1',
      '2. Refunds',
      '',
      EN_LABEL,
    ].join('\n'),
  );
});

test('the sources heading and the label follow the locale', (t) => {
  const message = formatForMessaging(
    { text: 'Rückgabe innerhalb von 30 Tagen [1].', citations: [citation(1, 'Rückgabe')] },
    'de',
  );
  t.is(
    message,
    ['Rückgabe innerhalb von 30 Tagen.', '', '_Quellen:_', '1. Rückgabe: https://shop.example/1', '', DE_LABEL].join('\n'),
  );
});

test('the AI label is always the last line and cannot be switched off', (t) => {
  const attempts = [{}, { maxChars: 50 }, { aiLabel: false, label: false, showAiLabel: false }] as MessagingFormatOptions[];
  for (const options of attempts) {
    for (const locale of ['en', 'de'] as const) {
      const message = formatForMessaging({ text: 'Short answer.', citations: [citation(1, 'Help')] }, locale, options);
      t.is(message.split('\n').at(-1), locale === 'en' ? EN_LABEL : DE_LABEL);
    }
  }
  t.is(formatForMessaging({ text: '', citations: [] }, 'en'), EN_LABEL);
  t.is(
    formatForMessaging({ text: '   ', citations: [citation(1, 'Help')] }, 'en'),
    `_Sources:_\n1. Help: https://shop.example/1\n\n${EN_LABEL}`,
  );
});

test('emphasis in the platform’s markup', (t) => {
  t.is(body('**bold** __bold__ *italic* _italic_ ~~gone~~ ***both***'), '*bold* *bold* _italic_ _italic_ ~gone~ *_both_*');
  t.is(body('Keep `inline code` and 5 * 3 = 15'), 'Keep `inline code` and 5 * 3 = 15');
});

test('links become plain URLs', (t) => {
  t.is(body('See [our guide](https://shop.example/guide).'), 'See our guide (https://shop.example/guide).');
  t.is(body('See [https://shop.example/guide](https://shop.example/guide).'), 'See https://shop.example/guide.');
  t.is(body('See [shop.example/guide](https://shop.example/guide/).'), 'See https://shop.example/guide/.');
  t.is(body('See https://shop.example/a_b_c for more.'), 'See https://shop.example/a_b_c for more.');
  t.is(body('[Click here](javascript:alert(1)) or [there](/relative)'), 'Click here or there');
  // A mail link shows its address too: the label alone would hide how to write to us.
  t.is(body('Write to [our team](mailto:help@shop.example?subject=Hi).'), 'Write to our team (help@shop.example).');
  t.is(body('Write to [help@shop.example](mailto:help@shop.example).'), 'Write to help@shop.example.');
});

test('headings, tables, lists, images, HTML and code fences', (t) => {
  t.is(body('## Sizes\nPick yours:'), '*Sizes*\nPick yours:');
  t.is(body('| Size | Length |\n|---|---|\n| 42 | 26.5 |'), 'Size – Length\n42 – 26.5');
  t.is(body('* one\n+ two\n1. first\n2) second'), '- one\n- two\n1. first\n2. second');
  t.is(body('Chart: ![Size chart](https://cdn.example/sizes.png)'), 'Chart: https://cdn.example/sizes.png');
  t.is(body('![Size chart](data:image/png;base64,AAAA)'), 'Size chart');
  t.is(body('<p>Hello<br>there <b>friend</b><script>steal()</script></p>'), 'Hello\nthere *friend*');
  t.is(body('Run:\n```sh\nnpm install\n```\nDone.'), 'Run:\n\nnpm install\n\nDone.');
});

test('citation markers are removed without leaving gaps', (t) => {
  t.is(body('Free returns [1]. Fast refunds [1, 2] and more [3][4] here.'), 'Free returns. Fast refunds and more here.');
  t.is(body('[1] Starts with a marker'), 'Starts with a marker');
  t.is(body('- Item one [2]\n- Item two'), '- Item one\n- Item two');
  t.is(body('(see [1])'), '(see)');
});

test('the sources block: one line per citation, only http(s) URLs, bounded', (t) => {
  const message = formatForMessaging(
    {
      text: 'Answer [1][2][3][4].',
      citations: [
        citation(1, '  Multi\nline   title '),
        citation(2, 'Script', 'javascript:alert(1)'),
        citation(3, '', 'https://shop.example/untitled'),
        citation(3, 'Duplicate number'),
        citation(4, '', null),
        citation(5, 'Long URL', `https://shop.example/${'x'.repeat(400)}`),
      ],
    },
    'en',
  );
  t.is(
    message,
    [
      'Answer.',
      '',
      '_Sources:_',
      '1. Multi line title: https://shop.example/1',
      '2. Script',
      '3. https://shop.example/untitled',
      '5. Long URL',
      '',
      EN_LABEL,
    ].join('\n'),
  );

  const many = Array.from({ length: 20 }, (_, i) => citation(i + 1, `Source ${i + 1} ${'with a very long title '.repeat(10)}`));
  const listed = formatForMessaging({ text: 'Answer.', citations: many }, 'en')
    .split('\n')
    .filter((line) => /^\d+\. /.test(line));
  t.is(listed.length, 8);
  for (const line of listed) t.true(line.length < 80 + 40, line);
});

test('the body is cut to maxChars (default 700) at a sentence boundary, ending with …', (t) => {
  const sentence = 'Our tents are tested in wind and rain before they ship to you. ';
  const long = sentence.repeat(30).trim();
  const cut = body(long);
  t.true(cut.length <= 700, `${cut.length}`);
  t.true(cut.length > 600, `${cut.length}`);
  t.true(cut.endsWith('to you. …'), cut);

  const short = body(long, { maxChars: 200 });
  t.true(short.length <= 200, `${short.length}`);
  t.true(short.endsWith('. …'), short);

  t.is(body('Short answer.', { maxChars: 200 }), 'Short answer.');
  t.is(body('Exactly twenty chars', { maxChars: 20 }), 'Exactly twenty chars');
});

test('a cut falls back to a word boundary, and only splits a word that is longer than the limit', (t) => {
  const words = `Intro. ${'word '.repeat(100)}`;
  const cut = body(words, { maxChars: 100 });
  t.true(cut.length <= 100, `${cut.length}`);
  t.regex(cut, /word…$/);

  t.is(body('a, b, c, d, e, f, g', { maxChars: 10 }), 'a, b, c…');
  const giant = body('x'.repeat(1_000), { maxChars: 50 });
  t.is(giant, `${'x'.repeat(49)}…`);
  t.is(body('Anything long enough', { maxChars: 1 }), '…');
  t.is(body('Anything long enough', { maxChars: 0 }), '…');
  t.true(body('Anything'.repeat(200), { maxChars: Number.NaN }).length <= 700);
});

test('the limit applies to the formatted text, not the markdown', (t) => {
  const link = '[guide](https://shop.example/guide)';
  const text = `Read the **${link}**.`;
  const formatted = 'Read the *guide (https://shop.example/guide)*.';
  t.is(body(text, { maxChars: formatted.length }), formatted);
});

test('the whole message stays well under the platform limit, whatever the input', (t) => {
  const hugeCitations = Array.from({ length: 50 }, (_, i) =>
    citation(i + 1, 'T'.repeat(5_000), `https://x.example/${'p'.repeat(290)}`),
  );
  const inputs = [
    { text: 'word '.repeat(50_000), citations: hugeCitations },
    { text: 'x'.repeat(100_000), citations: hugeCitations },
    { text: '| a | b |\n|---|---|\n'.repeat(5_000), citations: [] },
  ];
  for (const answer of inputs) {
    for (const maxChars of [undefined, 4_096, 100_000, Number.POSITIVE_INFINITY]) {
      const message = formatForMessaging(answer, 'de', { maxChars });
      t.true(message.length <= 4_000, `${message.length}`);
      t.true(message.endsWith(`\n${DE_LABEL}`));
    }
  }
});

test('labelAsAi appends the same label line', (t) => {
  const handoff = stringsFor('en').handoffStarted;
  t.is(labelAsAi(handoff, 'en'), `${handoff}\n\n${EN_LABEL}`);
  t.is(labelAsAi(`  ${stringsFor('de').handoffStarted}\n`, 'de'), `${stringsFor('de').handoffStarted}\n\n${DE_LABEL}`);
  t.is(labelAsAi('', 'en'), EN_LABEL);
  t.is(labelAsAi(labelAsAi(handoff, 'en'), 'en'), labelAsAi(handoff, 'en'));
  const huge = labelAsAi('word '.repeat(10_000), 'en');
  t.true(huge.length <= 4_000, `${huge.length}`);
  t.true(huge.endsWith(`…\n\n${EN_LABEL}`));
});
