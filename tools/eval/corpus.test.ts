import test from 'ava';
import { bulkRequest, ingestLimits } from '#api/schemas/ingest.js';
import { createAjv } from '#platform/json-schema.js';
import { evalCorpus, evalDistractorIds } from './corpus.js';
import { hardQuestions } from './hard-questions.js';
import { questionKinds, questionSplits, unansweredKinds, type QuestionKind } from './question-types.js';
import { evalQuestions } from './questions.js';

const itemIds = evalCorpus.map((item) => item.externalId);
const answerable = evalQuestions.filter((question) => question.answeredBy.length > 0);
const unanswerable = evalQuestions.filter((question) => question.answeredBy.length === 0);

function duplicates(values: string[]): string[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

/** The fewest new questions of each kind the harder set must hold (plain ones are not required). */
const hardMinimums: Partial<Record<QuestionKind, number>> = {
  paraphrase: 30,
  misspelled: 15,
  'two-sources': 12,
  unanswerable: 15,
  'off-topic': 20,
};

const ofKind = (kind: QuestionKind) => (question: { kind: QuestionKind }) => question.kind === kind;

test('externalIds and urls are unique', (t) => {
  t.deepEqual(duplicates(itemIds), []);
  t.deepEqual(duplicates(evalCorpus.map((item) => item.data.url)), []);
});

test('question ids and question texts are unique', (t) => {
  t.deepEqual(duplicates(evalQuestions.map((question) => question.id)), []);
  t.deepEqual(duplicates(evalQuestions.map((question) => question.question.trim().toLowerCase())), []);
});

test('every answeredBy id exists in the corpus, once per question', (t) => {
  const known = new Set(itemIds);
  for (const question of evalQuestions) {
    t.deepEqual(
      question.answeredBy.filter((id) => !known.has(id)),
      [],
      question.id,
    );
    t.deepEqual(duplicates(question.answeredBy), [], question.id);
  }
});

test('every item is answered by a question or deliberately listed as a distractor, never both', (t) => {
  const answered = new Set(evalQuestions.flatMap((question) => question.answeredBy));
  const distractors = new Set(evalDistractorIds);
  t.deepEqual(
    itemIds.filter((id) => !answered.has(id) && !distractors.has(id)),
    [],
  );
  t.deepEqual(
    evalDistractorIds.filter((id) => answered.has(id)),
    [],
  );
  t.deepEqual(
    evalDistractorIds.filter((id) => !itemIds.includes(id)),
    [],
  );
});

test('enough questions, and enough that nothing answers', (t) => {
  t.true(evalQuestions.length >= 60, `${evalQuestions.length} questions`);
  t.true(unanswerable.length >= 10, `${unanswerable.length} unanswerable`);
  t.true(answerable.length >= 50, `${answerable.length} answerable`);
  t.true(evalCorpus.length >= 40, `${evalCorpus.length} items`);
});

test('questions are non-empty and plausibly typed by a visitor', (t) => {
  for (const question of evalQuestions) {
    t.true(question.id.length > 0);
    t.true(question.question.trim().length >= 5, question.id);
    t.true(question.question.length <= 300, question.id);
  }
});

test('every item is a valid bulk ingestion item within the limits', (t) => {
  t.true(evalCorpus.length <= ingestLimits.itemsPerBulk);
  const validate = createAjv({ coerceTypes: false }).compile(bulkRequest);
  t.true(validate({ items: evalCorpus }), JSON.stringify(validate.errors?.slice(0, 5)));
  for (const item of evalCorpus) {
    t.true(item.data.title.trim().length > 0, item.externalId);
    t.true(item.data.content.trim().length > 0, item.externalId);
    t.true(item.data.content.length <= ingestLimits.contentChars, item.externalId);
    t.true(item.data.url.startsWith('https://northwind.example/'), item.externalId);
    t.is(item.integrationId, 'eval');
    t.is(item.sourceOrigin, 'eval');
  }
});

test('source types follow the spec: products, articles, services and pages', (t) => {
  for (const item of evalCorpus) {
    const expected = item.data.url.includes('/products/')
      ? ['PRODUCT']
      : item.data.url.includes('/services/')
        ? ['SERVICE']
        : item.externalId.startsWith('page-')
          ? ['PAGE']
          : ['ARTICLE'];
    t.true(expected.includes(item.sourceType), `${item.externalId}: ${item.sourceType}`);
  }
});

test('products have help-centre lengths (400 to 1,200 characters) and a price', (t) => {
  for (const item of evalCorpus.filter((candidate) => candidate.sourceType === 'PRODUCT')) {
    const length = item.data.content.length;
    t.true(length >= 400 && length <= 1200, `${item.externalId}: ${length}`);
    t.regex(item.data.content, /\$\d/, item.externalId);
    t.is(typeof item.data.sourceData?.['price'], 'number', item.externalId);
  }
});

test('every question has a known kind and split, and its answeredBy agrees with its kind', (t) => {
  for (const question of evalQuestions) {
    t.true(questionKinds.includes(question.kind), `${question.id}: ${question.kind}`);
    t.true(questionSplits.includes(question.split), `${question.id}: ${question.split}`);
    const unanswered = unansweredKinds.includes(question.kind);
    t.is(
      question.answeredBy.length === 0,
      unanswered,
      `${question.id}: ${question.kind} with ${question.answeredBy.length} sources`,
    );
    if (question.kind === 'two-sources') t.true(question.answeredBy.length >= 2, question.id);
  }
});

test('the first set is used for tuning only; the harder set is all new questions', (t) => {
  const hardIds = new Set(hardQuestions.map((question) => question.id));
  const firstSet = evalQuestions.filter((question) => !hardIds.has(question.id));
  t.deepEqual(
    firstSet.filter((question) => question.split !== 'tuning').map((question) => question.id),
    [],
  );
  t.is(firstSet.length + hardQuestions.length, evalQuestions.length);
  t.true(hardQuestions.every((question) => evalQuestions.includes(question)));
});

test('the harder set meets the minimum count of every kind', (t) => {
  for (const [kind, minimum] of Object.entries(hardMinimums) as Array<[QuestionKind, number]>) {
    const count = hardQuestions.filter(ofKind(kind)).length;
    t.true(count >= minimum, `${kind}: ${count} of at least ${minimum}`);
  }
  const nothingAnswers = hardQuestions.filter((question) => question.answeredBy.length === 0).length;
  t.true(nothingAnswers >= 35, `${nothingAnswers} new unanswerable and off-topic questions`);
});

test('every kind appears in both splits, and about half of each new kind is held out', (t) => {
  for (const split of questionSplits) {
    const inSplit = evalQuestions.filter((question) => question.split === split);
    for (const kind of questionKinds) t.true(inSplit.some(ofKind(kind)), `${split} has no ${kind} question`);
  }
  for (const kind of questionKinds) {
    const ofThisKind = hardQuestions.filter(ofKind(kind));
    const heldOut = ofThisKind.filter((question) => question.split === 'held-out').length;
    const share = heldOut / ofThisKind.length;
    t.true(share >= 0.4 && share <= 0.6, `${kind}: ${heldOut} of ${ofThisKind.length} held out`);
  }
});
