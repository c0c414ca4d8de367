import test from 'ava';
import { loadMiniLmEmbedder } from '#knowledge/embeddings/minilm/minilm-embedder.js';
import { defaultModelDir } from '#knowledge/embeddings/minilm/model-files.js';
import { encodeSentenceVectors, decodeSentenceVectors } from '#knowledge/sentence-vectors.js';
import { answerSentencesOf, createExtractiveComposer, type ExtractiveComposerOptions } from './composer.js';
import type { SentenceEmbedder } from './scoring.js';
import type { Locale } from '#workflows/locales.js';
import { stringsFor } from '../locales.js';
import type { ComposedAnswer, RetrievedSource } from '../types.js';

function source(n: number, title: string, text: string): RetrievedSource {
  return {
    n,
    sourceKey: `int-1:doc-${n}`,
    externalId: `doc-${n}`,
    integrationId: 'int-1',
    sourceType: 'help-article',
    title,
    url: `https://help.example.com/doc-${n}`,
    text,
    score: 1 / n,
    similarity: 0.6,
  };
}

// The real model, loaded once for the file: these tests are about which sentences answer a question.
let minilm: SentenceEmbedder;
test.before(async () => {
  minilm = await loadMiniLmEmbedder(defaultModelDir());
});

interface Composed extends ComposedAnswer {
  tokens: string[];
  resets: number;
}

async function compose(
  question: string,
  sources: RetrievedSource[],
  locale: Locale = 'en',
  options?: Partial<ExtractiveComposerOptions>,
): Promise<Composed> {
  const tokens: string[] = [];
  let resets = 0;
  const sink = { token: (delta: string) => tokens.push(delta), reset: () => resets++ };
  const answer = await createExtractiveComposer({ embedder: minilm, ...options }).generate({ question, locale, sources }, sink);
  return { ...answer, tokens, resets };
}

const RETURNS = source(
  1,
  'Returns and refunds',
  [
    'Returns are free within 30 days of delivery. Refunds take 5 business days once the parcel arrives at our warehouse.',
    'To start a return, open your order in your account and choose "Return items". Print the label and drop the parcel at any post office.',
    'Sale items can be exchanged but not refunded.',
  ].join('\n'),
);

const SHIPPING = source(
  1,
  'Shipping',
  [
    'We ship to all EU countries and Switzerland. Standard shipping takes 2–4 business days within Germany and 3–7 business days to other EU countries.',
    'Express delivery arrives the next business day if you order before 2 pm.',
    'Shipping is free on orders over €50; below that it costs €4.95.',
  ].join('\n'),
);

const TENT = source(
  1,
  'Trail Tent 2 – product details',
  [
    'The Trail Tent 2 is a lightweight two-person tent for three-season use.',
    '- Dimensions: 210 × 130 × 100 cm (L × W × H) when pitched',
    '- Packed size: 45 × 15 cm',
    '- Weight: 1.9 kg',
    'The fly is made of 20D ripstop nylon with a 3,000 mm waterproof coating.',
  ].join('\n'),
);

const STORE = source(
  1,
  'Visit our store in Hamburg',
  [
    'Our flagship store is at Hafenstraße 12, 20359 Hamburg, five minutes from the Landungsbrücken station.',
    'Opening hours',
    'Monday to Friday: 10:00–19:00',
    'Saturday: 10:00–16:00',
    'Sundays and public holidays: closed',
    'Parking is available in the garage next door.',
  ].join('\n'),
);

const PASSWORD = source(
  1,
  'Reset your password',
  [
    'If you forgot your password, you can set a new one in a few steps:',
    '1. Open the sign-in page and click "Forgot password".',
    '2. Enter the email address you use for your account.',
    '3. Open the link in the email we send you and choose a new password.',
    'The link is valid for 24 hours. If the email does not arrive, check your spam folder.',
  ].join('\n'),
);

const VERSAND = source(
  1,
  'Versand und Lieferung',
  [
    'Wir versenden alle Bestellungen mit DHL. Die Lieferzeit innerhalb Deutschlands beträgt 1–3 Werktage.',
    'Nach Österreich und in die Schweiz dauert der Versand 3–5 Werktage.',
    'Ab einem Bestellwert von 50 € ist der Versand kostenlos.',
  ].join('\n'),
);

/** A stand-in for tests about what is embedded, not about meaning: every text gets the same vector. */
function recordingEmbedder(): SentenceEmbedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    async embed(texts) {
      calls.push(texts);
      return texts.map(() => [1, 0, 0]);
    },
  };
}

/**
 * A stand-in for tests of the rules rather than the model: each text's cosine similarity to the
 * question is the value of the first key it contains (0 when none).
 */
function scriptedEmbedder(similarities: Record<string, number>): SentenceEmbedder {
  return {
    async embed(texts) {
      return texts.map((text, i) => {
        if (i === 0) return [1, 0]; // the question
        const similarity = Object.entries(similarities).find(([key]) => text.includes(key))?.[1] ?? 0;
        return [similarity, Math.sqrt(1 - similarity ** 2)];
      });
    },
  };
}

async function composeScripted(question: string, sources: RetrievedSource[], similarities: Record<string, number>) {
  const composer = createExtractiveComposer({ embedder: scriptedEmbedder(similarities), maxSentences: 6 });
  return composer.generate({ question, locale: 'en', sources }, { token() {}, reset() {} });
}

test('the floor, the source margin and the sentence margin, on scripted similarities', async (t) => {
  const first = source(1, 'One', 'Alpha answers it. Beta is close. Gamma is further off.');
  const second = source(2, 'Two', 'Delta is near the best. Epsilon trails.');
  const third = source(3, 'Three', 'Zeta shares the topic.');
  const sources = [first, second, third];
  // Best 0.7 (the first source's 0.63 with its head start of 0.07): sentences from 0.62 (0.08 behind)
  // are shown, sources whose best is from 0.65 (0.05 behind) contribute.
  const answer = await composeScripted('Which letter?', sources, {
    Alpha: 0.63,
    Beta: 0.56,
    Gamma: 0.54,
    Delta: 0.66,
    Epsilon: 0.64,
    Zeta: 0.64,
  });
  // Groups are shown by their best sentence's own similarity: Delta's 0.66 before Alpha's 0.63.
  t.is(answer.text, 'Delta is near the best. Epsilon trails. [2]\n\nAlpha answers it. Beta is close. [1]');
  t.deepEqual(
    answer.citations.map((citation) => citation.n),
    [1, 2],
  );
  // Nothing at 0.3 or above: no answer, however far ahead the best is.
  const unknown = await composeScripted('Which letter?', sources, { Alpha: 0.29, Delta: 0.1 });
  t.is(unknown.outcome, 'unknown');
  t.deepEqual(unknown.citations, []);
});

test("retrieval's first source keeps its place within its head start, and only there", async (t) => {
  const first = source(1, 'One', 'Alpha is about it.');
  const second = source(2, 'Two', 'Delta says it a little better.');
  // 0.6 + 0.07 is within 0.05 of 0.66: both are cited, the first source first.
  const kept = await composeScripted('Which letter?', [first, second], { Alpha: 0.6, Delta: 0.66 });
  t.deepEqual(
    kept.citations.map((citation) => citation.n),
    [1, 2],
  );
  // The group with the closer sentence is still shown first.
  t.is(kept.text, 'Delta says it a little better. [2]\n\nAlpha is about it. [1]');
  // 0.55 + 0.07 is more than 0.05 behind 0.7: the first source is dropped.
  const dropped = await composeScripted('Which letter?', [first, second], { Alpha: 0.55, Delta: 0.7 });
  t.is(dropped.text, 'Delta says it a little better. [2]');
  // Only retrieval's first source has a head start: the same sentences the other way round drop Alpha at once.
  const later = await composeScripted(
    'Which letter?',
    [
      { ...second, n: 1 },
      { ...first, n: 2 },
    ],
    { Alpha: 0.6, Delta: 0.66 },
  );
  t.is(later.text, 'Delta says it a little better. [1]');
  // The head start never lifts a sentence over the floor.
  const floor = await composeScripted('Which letter?', [first], { Alpha: 0.28 });
  t.is(floor.outcome, 'unknown');
});

test('a leaning sentence whose antecedent is below the floor is left out, one above it is pulled in', async (t) => {
  const passage = source(1, 'Versions', 'The release is shown in Settings. It lists the codename too. Updates run daily.');
  const pulled = await composeScripted('codename?', [passage], { 'The release': 0.35, 'It lists': 0.8 });
  t.is(pulled.text, 'The release is shown in Settings. It lists the codename too. [1]');
  const left = await composeScripted('codename?', [passage], { 'The release': 0.25, 'It lists': 0.8, Updates: 0.74 });
  t.is(left.text, 'Updates run daily. [1]');
});

test('the generator is named extractive', (t) => {
  t.is(createExtractiveComposer({ embedder: recordingEmbedder() }).name, 'extractive');
});

test('the question and every distinct sentence are embedded in one call, the question first, sentences after their title', async (t) => {
  const embedder = recordingEmbedder();
  const copy = source(2, 'Returns (copy)', 'Returns are free within 30 days.');
  const sink = { token() {}, reset() {} };
  const question = 'How long do refunds take?';
  const text = 'Returns are free within 30 days. Refunds take 5 business days.';
  await createExtractiveComposer({ embedder }).generate(
    { question, locale: 'en', sources: [source(1, 'Help', text), copy] },
    sink,
  );
  t.deepEqual(embedder.calls, [[question, 'Help\n\nReturns are free within 30 days.', 'Help\n\nRefunds take 5 business days.']]);
  // Nothing to look for, nothing embedded.
  await createExtractiveComposer({ embedder }).generate({ question: 'How do I do that?', locale: 'en', sources: [copy] }, sink);
  t.is(embedder.calls.length, 1);
});

test('sentences whose vectors were stored at ingestion are not embedded again, and answer as if they were', async (t) => {
  const question = 'How long do refunds take?';
  const fresh = await compose(question, [RETURNS]);
  // As ingestion stores them: every sentence of the passage, embedded after the title.
  const texts = answerSentencesOf(RETURNS.title, RETURNS.text);
  t.true(texts.length >= 5);
  t.true(texts.every((text) => text.startsWith('Returns and refunds\n\n')));
  const stored = decodeSentenceVectors(encodeSentenceVectors(texts, await minilm.embed(texts)));

  const calls: string[][] = [];
  const counting: SentenceEmbedder = {
    embed: (batch) => {
      calls.push(batch);
      return minilm.embed(batch);
    },
  };
  const sink = { token() {}, reset() {} };
  const answer = await createExtractiveComposer({ embedder: counting }).generate(
    { question, locale: 'en', sources: [{ ...RETURNS, sentenceVectors: stored }] },
    sink,
  );
  t.deepEqual(calls, [[question]]);
  t.is(answer.text, fresh.text);
  t.deepEqual(answer.citations, fresh.citations);

  // A source whose stored vectors are of other texts (another title since) has its sentences embedded.
  calls.length = 0;
  await createExtractiveComposer({ embedder: counting }).generate(
    { question, locale: 'en', sources: [{ ...RETURNS, title: 'Refund policy', sentenceVectors: stored }] },
    sink,
  );
  t.is(calls.length, 1);
  t.is(calls[0]!.length, texts.length + 1);
});

test('returns policy: the sentence with the return window, cited', async (t) => {
  const answer = await compose('How many days do I have to return something?', [RETURNS]);
  t.is(answer.outcome, 'answered');
  t.true(answer.text.startsWith('Returns are free within 30 days of delivery.'), answer.text);
  t.true(answer.text.endsWith(' [1]'), answer.text);
  t.deepEqual(answer.citations, [
    {
      n: 1,
      title: 'Returns and refunds',
      url: 'https://help.example.com/doc-1',
      externalId: 'doc-1',
      sourceType: 'help-article',
    },
  ]);
});

test('two sentences that both answer are shown together, unrelated ones stay out', async (t) => {
  const text = 'Returns are free within 30 days. Refunds take 5 business days.\nOur team is available by phone and email.';
  const answer = await compose('What is your returns policy?', [source(1, 'Help', text)]);
  t.is(answer.text, 'Returns are free within 30 days. Refunds take 5 business days. [1]');
});

test('shipping times: the sentence with the delivery times', async (t) => {
  const answer = await compose('How long does shipping to Austria take?', [SHIPPING]);
  t.is(answer.outcome, 'answered');
  t.true(answer.text.includes('Standard shipping takes 2–4 business days'), answer.text);
  t.false(answer.text.includes('Express'), answer.text);
});

test('shipping costs: the sentence with the price, not the delivery times', async (t) => {
  const answer = await compose('How much does shipping cost?', [SHIPPING]);
  t.true(answer.text.startsWith('Shipping is free on orders over €50; below that it costs €4.95.'), answer.text);
});

test('product dimensions: the list item with the measurements', async (t) => {
  const answer = await compose('What are the dimensions of the Trail Tent 2?', [TENT]);
  t.true(answer.text.includes('- Dimensions: 210 × 130 × 100 cm (L × W × H) when pitched'), answer.text);
  t.false(answer.text.includes('ripstop'), answer.text);
});

test('opening hours: the heading brings the hours under it along', async (t) => {
  const answer = await compose('What are your opening hours on Saturday?', [STORE]);
  t.true(answer.text.startsWith('Opening hours: Monday to Friday: 10:00–19:00'), answer.text);
  t.true(answer.text.includes('Saturday: 10:00–16:00'), answer.text);
  t.false(answer.text.includes('Parking'), answer.text);
});

test('password reset: the introduction and the first steps, as a list', async (t) => {
  const answer = await compose('How do I reset my password?', [PASSWORD]);
  t.is(
    answer.text,
    [
      'If you forgot your password, you can set a new one in a few steps:',
      '1. Open the sign-in page and click "Forgot password".',
      '2. Enter the email address you use for your account. [1]',
    ].join('\n'),
  );
  const longer = await compose('How do I reset my password?', [PASSWORD], 'en', { maxSentences: 4 });
  t.true(longer.text.endsWith('3. Open the link in the email we send you and choose a new password. [1]'), longer.text);
});

const FAQ = source(
  1,
  'Frequently asked questions',
  [
    'How long does delivery take?',
    'Most orders arrive within 2–4 business days. During sales it can take a little longer.',
    'Can I change my order?',
    'You can change or cancel an order until it has been packed.',
    'Do you ship internationally?',
    'Yes, we ship to over 40 countries. Duties may apply outside the EU.',
    'Which payment methods do you accept?',
  ].join('\n'),
);

test('FAQ: a matching question brings its answer, never the next question', async (t) => {
  const abroad = await compose('Is international shipping available?', [FAQ]);
  t.is(abroad.text, 'Do you ship internationally? Yes, we ship to over 40 countries. Duties may apply outside the EU. [1]');
  const change = await compose('How can I change my order?', [FAQ], 'en', { maxSentences: 4 });
  t.is(change.text, 'Can I change my order? You can change or cancel an order until it has been packed. [1]');
});

test('a heading or question with nothing after it is not an answer', async (t) => {
  const answer = await compose('Which payment methods do you accept?', [FAQ]);
  t.is(answer.outcome, 'unknown', answer.text);
  const heading = source(1, 'Store', 'Our flagship store is in Hamburg.\nOpening hours');
  t.is((await compose('What are the opening hours?', [heading])).outcome, 'unknown');
});

test('German question on German text', async (t) => {
  const answer = await compose('Wie lange dauert der Versand nach Österreich?', [VERSAND], 'de');
  t.is(answer.outcome, 'answered');
  t.true(answer.text.startsWith('Nach Österreich und in die Schweiz dauert der Versand 3–5 Werktage.'), answer.text);
  t.true(answer.text.endsWith('[1]'));
});

test('compounds and inflections meet: "Rückgabe" finds "Rückgabefrist", "shipped" finds "shipping"', async (t) => {
  const text = 'Die Rückgabefrist beträgt 30 Tage ab Erhalt der Ware.\nGutscheine sind drei Jahre gültig.';
  const german = await compose('Wie funktioniert die Rückgabe?', [source(1, 'Hilfe', text)], 'de');
  t.true(german.text.startsWith('Die Rückgabefrist beträgt 30 Tage'), german.text);
  const english = await compose('When is my order shipped?', [SHIPPING]);
  t.is(english.outcome, 'answered');
});

const UBUNTU_VERSION = source(
  1,
  'Checking your Ubuntu version',
  'Ubuntu publishes a new release every six months, and long-term support releases every two years. To see which release is installed, open a terminal and run lsb_release -a. It will display the name of the distribution, the release number and its codename. You can also open Settings and look under About.',
);
const UBUNTU_UPDATES = source(
  2,
  'Installing updates',
  'Software Updater checks for updates once a day. Security updates are installed automatically by default. You can change how often it checks under Software & Updates.',
);

test('a sentence that leans on the one before never opens an answer: "It will display…" comes with its subject', async (t) => {
  const answer = await compose("how do I check what version I'm running", [UBUNTU_VERSION, UBUNTU_UPDATES]);
  t.is(
    answer.text,
    'To see which release is installed, open a terminal and run lsb_release -a. It will display the name of the distribution, the release number and its codename. [1]',
  );
  t.deepEqual(
    answer.citations.map((citation) => citation.n),
    [1],
  );
});

test('the sentence before a leaning one is pulled in when it is about the question too', async (t) => {
  // "It will display…" is by far the closest; the sentence it leans on is less close but on topic.
  const answer = await compose('how can I see the codename and release number of my distribution?', [UBUNTU_VERSION]);
  t.is(
    answer.text,
    'To see which release is installed, open a terminal and run lsb_release -a. It will display the name of the distribution, the release number and its codename. [1]',
  );
});

test('a leaning sentence whose antecedent is missing (a chunk starts with it) is never shown', async (t) => {
  const cut = source(1, 'Checking your Ubuntu version', UBUNTU_VERSION.text.slice(UBUNTU_VERSION.text.indexOf('It will')));
  const answer = await compose('how can I see the codename and release number of my distribution?', [cut]);
  t.false(answer.text.includes('It will display'), answer.text);
  t.is(answer.outcome, 'unknown', answer.text);
});

test('meaning over shared words: the paraphrase is the best sentence, above the one with "package" and "upgraded"', async (t) => {
  const apt = source(
    1,
    'Package management with apt',
    'The apt upgrade command installs the newest versions of all packages currently installed. Packages that need new dependencies are not upgraded by apt upgrade; use apt full-upgrade for those. If you want apt to leave a package at its current version, put it on hold: sudo apt-mark hold <name>.',
  );
  // One sentence: the best. Whether the other two are shown beside it depends on the CPU's int8
  // kernels: on an AVX2 CPU they fall outside the sentence margin, with VNNI they come within it (0.620
  // for this one, 0.572 and 0.559 for theirs).
  const answer = await compose('how can I keep a package from being upgraded?', [apt], 'en', { maxSentences: 1 });
  t.is(answer.text, 'If you want apt to leave a package at its current version, put it on hold: sudo apt-mark hold <name>. [1]');
});

test("the sentences of a source keep the source's order, the best one included", async (t) => {
  // "Refunds take 5 business days…" is the closer one; "Returns are free…" still comes first.
  const answer = await compose('How long does a refund take after I send something back?', [RETURNS]);
  t.is(
    answer.text,
    'Returns are free within 30 days of delivery. Refunds take 5 business days once the parcel arrives at our warehouse. [1]',
  );
});

const ALPINA = source(
  1,
  'Regenjacke Alpina',
  [
    'Die Alpina ist unsere leichteste Regenjacke für Wanderungen. Sie ist wasserdicht bis 20.000 mm Wassersäule und atmungsaktiv.',
    '',
    'Sie können die Jacke bei 30 °C im Schonwaschgang waschen. Danach einfach bei niedriger Temperatur in den Trockner geben.',
  ].join('\n'),
);

test('German: "Sie ist…" comes with the sentence naming the jacket, the polite "Sie können…" stands alone', async (t) => {
  const waterproof = await compose('Ist die Alpina wasserdicht?', [ALPINA], 'de');
  t.true(
    waterproof.text.startsWith('Die Alpina ist unsere leichteste Regenjacke für Wanderungen. Sie ist wasserdicht'),
    waterproof.text,
  );
  // "Sie können…" opens its passage, and is still an answer.
  const washing = await compose('Kann ich die Alpina in der Maschine waschen?', [ALPINA], 'de');
  t.true(washing.text.includes('Sie können die Jacke bei 30 °C im Schonwaschgang waschen.'), washing.text);
  // "Sie ist…" at the start of a passage has lost its subject.
  const cut = source(1, 'Regenjacke Alpina', ALPINA.text.slice(ALPINA.text.indexOf('Sie ist')));
  const alone = await compose('Ist die Alpina wasserdicht?', [cut], 'de');
  t.false(alone.text.includes('Sie ist wasserdicht'), alone.text);
});

test('two sources that both answer are both cited, the one with the best sentence first', async (t) => {
  const returns = source(
    1,
    'Returns',
    'You can return any item within 30 days. Use the prepaid label in your parcel. Once your return arrives, we refund you within 5 business days.',
  );
  const refunds = source(
    2,
    'Refunds',
    'Refunds are paid to your original payment method.\nA refund takes 3–5 business days after we receive the item, and your bank may need a few more days to show it.',
  );
  const answer = await compose('How long does a refund take?', [returns, refunds]);
  t.is(answer.outcome, 'answered');
  t.deepEqual(
    answer.citations.map((citation) => citation.n),
    [1, 2],
  );
  const groups = answer.text.split('\n\n');
  t.is(groups.length, 2, answer.text);
  // The group with the sentence closest to the question comes first, whatever its number.
  t.true(groups[0]!.startsWith('A refund takes 3–5 business days') && groups[0]!.endsWith(' [2]'), answer.text);
  t.is(groups[1], 'Once your return arrives, we refund you within 5 business days. [1]');
});

test('a source that shares the topic but does not answer is neither shown nor cited', async (t) => {
  const returns = source(
    1,
    'Returns',
    'You can return any item within 30 days of delivery. Open your order in your account and choose Return items. Print the prepaid label, attach it to the parcel and drop it at any post office.',
  );
  const store = source(
    2,
    'Store locations',
    'Our flagship store is in Hamburg, five minutes from the Landungsbrücken station. It is open Monday to Saturday from 10:00 to 19:00. Parking is available in the garage next door.',
  );
  const answer = await compose('How do I return an item?', [returns, store]);
  t.is(answer.outcome, 'answered');
  t.true(answer.text.endsWith(' [1]'), answer.text);
  t.false(/Hamburg|Monday|Parking|\[2\]/.test(answer.text), answer.text);
  t.deepEqual(
    answer.citations.map((citation) => citation.n),
    [1],
  );
});

test('a source that adds nothing is not cited', async (t) => {
  const answer = await compose('How many days do I have to return something?', [RETURNS, { ...STORE, n: 2 }]);
  t.deepEqual(
    answer.citations.map((citation) => citation.n),
    [1],
  );
  t.false(answer.text.includes('[2]'));
});

test('unknown when no sentence is close to the question in meaning', async (t) => {
  for (const locale of ['en', 'de'] as const) {
    const answer = await compose('Who won the football world cup in 2014?', [SHIPPING, { ...RETURNS, n: 2 }], locale);
    const strings = stringsFor(locale);
    t.is(answer.outcome, 'unknown');
    t.is(answer.text, `${strings.dontKnow} ${strings.offerHuman}`);
    t.deepEqual(answer.citations, []);
    t.is(answer.tokens.join(''), answer.text);
  }
});

test('a question of stopwords only gives unknown', async (t) => {
  for (const question of ['what is it?', 'Was ist das?', 'How do I do that?', '?']) {
    const answer = await compose(question, [RETURNS, { ...SHIPPING, n: 2 }]);
    t.is(answer.outcome, 'unknown', question);
  }
});

test('sentences repeated by overlapping chunks appear once', async (t) => {
  const text = [
    'Returns are free within 30 days of delivery. Refunds take 5 business days.',
    '',
    'Refunds take 5 business days. Refunds go to the card you paid with.',
  ].join('\n');
  const twice = source(1, 'Returns', text);
  const copy = source(2, 'Returns (copy)', 'Refunds take 5 business days.');
  const answer = await compose('How long do refunds take?', [twice, copy]);
  t.is(answer.text.split('Refunds take 5 business days.').length - 1, 1, answer.text);
  t.deepEqual(
    answer.citations.map((citation) => citation.n),
    [1],
  );
});

test('a sentence cut at a chunk start is a near duplicate of the whole one', async (t) => {
  const text = [
    'Standard shipping takes 2–4 business days within Germany and 3–7 business days to other countries.',
    '',
    'within Germany and 3–7 business days to other countries. Express shipping takes one business day.',
  ].join('\n');
  const answer = await compose('How many business days does shipping take to other countries?', [source(1, 'Shipping', text)]);
  t.is(answer.text.split('3–7 business days').length - 1, 1, answer.text);
});

test('the streamed tokens are small and add up to the text, and nothing is reset', async (t) => {
  const cases: Array<[string, RetrievedSource[]]> = [
    ['How do I reset my password?', [PASSWORD]],
    ['What are your opening hours on Saturday?', [STORE]],
    ['How long does a refund take after a return?', [RETURNS, { ...SHIPPING, n: 2 }]],
  ];
  for (const [question, sources] of cases) {
    const answer = await compose(question, sources);
    t.is(answer.tokens.join(''), answer.text);
    t.true(answer.tokens.length > 5);
    t.true(
      answer.tokens.every((token) => /^\S+\s*$/.test(token)),
      JSON.stringify(answer.tokens),
    );
    t.is(answer.resets, 0);
  }
});

test('length limits hold', async (t) => {
  const all = [RETURNS, { ...SHIPPING, n: 2 }, { ...PASSWORD, n: 3 }];
  const question = 'How long do returns, refunds and shipping take, and how do I reset my password by email?';
  const answer = await compose(question, all);
  t.true(answer.text.length <= 420, `${answer.text.length}`);
  t.true(sentenceCount(answer.text) <= 3, answer.text);

  const one = await compose(question, all, 'en', { maxSentences: 1 });
  t.is(sentenceCount(one.text), 1, one.text);
  t.is(one.citations.length, 1);

  for (const maxChars of [80, 120, 200]) {
    const short = await compose(question, all, 'en', { maxChars });
    t.is(short.outcome, 'answered');
    t.true(short.text.length <= maxChars, `${maxChars}: ${short.text}`);
  }
});

test('invalid limits are refused', (t) => {
  const embedder = recordingEmbedder();
  t.throws(() => createExtractiveComposer({ embedder, maxSentences: 0 }), { instanceOf: RangeError });
  t.throws(() => createExtractiveComposer({ embedder, maxChars: 20 }), { instanceOf: RangeError });
  t.throws(() => createExtractiveComposer({ embedder, maxSentences: 1.5 }), { instanceOf: RangeError });
});

test('a long run-on paragraph is cut at a clause, around the matching words, with ellipses', async (t) => {
  const clauses = [
    'our loyalty programme has grown a lot over the years and we keep adding new benefits for members',
    'members collect one point for every euro they spend in our shops and online',
    'points can be redeemed for vouchers in the app',
    'the gold tier starts at 2,000 points a year and includes free express shipping on every order',
    'silver members get early access to sales and a birthday gift',
    'and all members are invited to our yearly summer event in Hamburg where we present the new collection',
    'which is always a lot of fun for everyone who comes along and brings friends or family',
    'and if you have any questions about the programme our customer service team is happy to help you by phone or email',
  ];
  const paragraph = `${clauses.join(', ').replace(/^o/, 'O')} and that is why we love our members`;
  t.true(paragraph.length > 600);
  const answer = await compose('Which tier includes free express shipping?', [source(1, 'Loyalty programme', paragraph)]);
  t.is(answer.outcome, 'answered');
  t.true(answer.text.length <= 420, answer.text);
  t.true(answer.text.includes('the gold tier starts at 2,000 points a year and includes free express shipping'), answer.text);
  const body = answer.text.replace(/ \[1\]$/, '');
  t.true(body.startsWith('…') || body.startsWith('Our'), body);
  t.true(body.endsWith('…'), body);
  // Cut after a clause: no dangling comma before the ellipsis, no word cut in half.
  t.false(body.includes(',…'));
  for (const word of body.replace(/…/g, ' ').split(/\s+/).filter(Boolean)) {
    t.true(paragraph.includes(word.replace(/[.,;:]$/, '')), word);
  }
});

test('footnote markers of the source are not mistaken for citations', async (t) => {
  const text = 'Returns are accepted within 30 days[3] of delivery.';
  const answer = await compose('Can I make returns?', [source(1, 'Returns', text)]);
  t.is(answer.text, 'Returns are accepted within 30 days of delivery. [1]');
});

/** Sentences in an answer: ends of sentences and line-separated items, markers aside. */
function sentenceCount(text: string): number {
  return text
    .replace(/ \[\d+\]/g, '')
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=\p{L}[.!?…])\s+(?=\p{Lu})/u))
    .filter((part) => part.trim() !== '').length;
}
