/**
 * The words a question is about: text folded (lower case, Latin diacritics removed), split into
 * words, English and German stopwords dropped, and the rest stemmed lightly, so "returns",
 * "returned" and "returning" meet as "return". The extractive composer and the relevance check
 * of answers compare questions and passages through these terms.
 */

// Latin diacritics go, so "Ruckgabe" typed without umlauts still matches "Rückgabe".
const LATIN_DIACRITICS = /[\u0300-\u036f]/g;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
export const DIGIT = /\p{N}/u;
const NON_ASCII = /[^\0-\x7f]/;

// Question and filler words of English and German: what is left of a question is what it is about.
const STOPWORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing done down during each either else ever every few for from further get gets getting got had has ' +
    'have having he her here hers herself him himself his how i if in into is it its itself just let lets me might mine more ' +
    'most much must my myself need no nor not now of off on once only or other our ours ourselves out over own please same shall ' +
    'she should so some such than thank thanks that the their theirs them themselves then there these they this those through ' +
    'to too under until up upon us very via was we were what whats when where whether which while who whom whose why will with ' +
    'would you your yours yourself yourselves hi hello hey tell know want wants like okay ok yes ' +
    'ab aber alle allem allen aller alles als also am an auch auf aus bei beim bin bis bist bitte da dafür damit dann das dass ' +
    'dein deine deinem deinen deiner dem den denn der des dessen dich die dir doch dort du durch ein eine einem einen einer eines ' +
    'er es etwa euch euer eure für gegen gibt habe haben hat hatte hallo hier ich ihm ihn ihnen ihr ihre ihrem ihren ihrer im in ' +
    'ist ja je jede jedem jeden jeder jedes kann kannst kein keine keinem keinen können könnt könnte man mein meine meinem meinen ' +
    'meiner mich mir mit muss müssen nach nicht noch nun nur ob oder ohne sein seine seinem seinen seiner sich sie sind so soll ' +
    'sollte über um und uns unser unsere unserem unseren unserer vom von vor wann war warum was weil welche welchem welchen ' +
    'welcher welches wenn wer werde werden wie wieso wir wird wo woher wohin zu zum zur danke gerne lange'
  )
    .split(' ')
    .map(fold),
);

// Suffixes tried longest first; the first that leaves a stem of 3+ letters is cut, and the stem is
// cut again until nothing changes (orders → order → ord, as order → ord).
const SUFFIXES: Array<[suffix: string, replacement: string]> = [
  ['ments', ''],
  ['ment', ''],
  ['ness', ''],
  ['ings', ''],
  ['ing', ''],
  ['ies', 'y'],
  ['ied', 'y'],
  ['ern', ''],
  ['ed', ''],
  ['es', ''],
  ['en', ''],
  ['em', ''],
  ['er', ''],
  ['ly', ''],
  ['e', ''],
  ['s', ''],
];
const MIN_STEM = 3;
// "shipp" → "ship", "sett" → "set"; doubled l, s and z stay ("install", "pass", "buzz").
const DOUBLED_END = /([b-df-hj-km-rt-y])\1$/;

/** Lower case, Latin diacritics removed, ß as ss. */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFKD').replace(LATIN_DIACRITICS, '').replaceAll('ß', 'ss') : lower;
}

/** The folded words of `text`. */
export function wordsOf(text: string): string[] {
  return fold(text).match(WORD) ?? [];
}

/** The distinct stems of the content words among `words`; `stems` caches stems across calls. */
export function termsOf(words: string[], stems: Map<string, string> = new Map()): Set<string> {
  const terms = new Set<string>();
  for (const word of words) {
    if (STOPWORDS.has(word)) continue;
    if (DIGIT.test(word)) {
      terms.add(word);
    } else if (word.length > 1) {
      let stemmed = stems.get(word);
      if (stemmed === undefined) stems.set(word, (stemmed = stem(word)));
      terms.add(stemmed);
    }
  }
  return terms;
}

/** A light English and German suffix stemmer: "returns", "returned", "returning" → "return". */
function stem(word: string): string {
  let current = word;
  for (;;) {
    const next = stripSuffix(current);
    if (next === current) return current;
    current = next;
  }
}

function stripSuffix(word: string): string {
  for (const [suffix, replacement] of SUFFIXES) {
    if (!word.endsWith(suffix) || word.length - suffix.length < MIN_STEM) continue;
    // "address", "status", "analysis" are no plurals.
    if (suffix === 's' && /[siu]s$/.test(word)) continue;
    const base = word.slice(0, word.length - suffix.length);
    return replacement === '' && base.length >= 4 && DOUBLED_END.test(base) ? base.slice(0, -1) : base + replacement;
  }
  return word;
}

/** Stems of five letters or more also meet by prefix ("rückgabe" and "rückgabefrist"). */
const MIN_PREFIX_MATCH = 5;

/** Stems of five letters or more also meet one typo apart ("medow" and "meadow", "jakcet" and "jacket"). */
const MIN_TYPO_MATCH = 5;

/**
 * The share of the question's terms that `text` contains (0 when the question has none): a passage
 * about the question contains most of what it asks about, not one stray word of it. Visitors type in
 * a hurry, so a long term also counts when the text has it one typo away.
 */
export function termCoverage(question: string, text: string): number {
  const wanted = [...termsOf(wordsOf(question))];
  if (wanted.length === 0) return 0;
  const present = termsOf(wordsOf(text));
  const long = [...present].filter((term) => term.length >= MIN_PREFIX_MATCH);
  const found = wanted.filter(
    (term) =>
      present.has(term) ||
      (term.length >= MIN_PREFIX_MATCH &&
        long.some(
          (other) =>
            other.startsWith(term) ||
            term.startsWith(other) ||
            (Math.min(term.length, other.length) >= MIN_TYPO_MATCH && oneTypoApart(term, other)),
        )),
  );
  return found.length / wanted.length;
}

/** Whether one letter added, dropped, changed, or two neighbours swapped, turns `a` into `b`. */
export function oneTypoApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  // What differs between the common start and the common end.
  const middleA = a.slice(start, endA);
  const middleB = b.slice(start, endB);
  if (middleA.length + middleB.length <= 1) return true;
  if (middleA.length === 1 && middleB.length === 1) return true;
  return middleA.length === 2 && middleB.length === 2 && middleA[0] === middleB[1] && middleA[1] === middleB[0];
}
