/*
 * Sentences that lean on the one before them: they open with a pronoun, a demonstrative or a
 * connective whose meaning is in the previous sentence ("It will display the name of the
 * distribution…", "However, sale items…", "Dafür brauchen Sie…"). Shown alone, they answer nothing or
 * mislead, so the composer only takes one together with the sentence right before it.
 *
 * English and German, the composer's languages. Left out on purpose: expletive "it"/"es" ("It is
 * possible to…", "Es gibt…"), German "Ihr"/"Ihre" and formal "Sie" (the polite "you"/"your" that opens
 * most German help sentences), "Das"/"Die"/"Der" (mostly articles), and "Here"/"There" ("Here is how…"
 * points forward, "There are…" is expletive).
 */

// Whole opening words; matched case-insensitively, after a list marker or an opening quote.
const ENGLISH =
  "it|its|it’s|it's|this|that|that’s|that's|these|those|they|they’re|they're|them|their|theirs|he|she|his|her|him|" +
  'such|both|also|however|then|therefore|thus|hence|otherwise|instead|alternatively|additionally|furthermore|moreover|' +
  'besides|likewise|similarly|nevertheless|nonetheless|consequently|accordingly|afterwards|another|but|and|or|yet|so';
const GERMAN =
  'es|er|dies|diese|dieser|dieses|diesem|diesen|seine|seiner|seinem|seinen|solche|solcher|solches|solchen|beide|beides|' +
  'außerdem|zudem|ebenfalls|ebenso|auch|jedoch|allerdings|trotzdem|dennoch|deshalb|deswegen|daher|darum|somit|folglich|' +
  'dann|danach|anschließend|sonst|andernfalls|stattdessen|dort|dafür|dazu|dadurch|davon|dabei|darauf|darin|darüber|' +
  'daraus|dagegen|hierfür|hierzu';
// Openings of more than one word.
const PHRASES = [
  'in addition',
  'as a result',
  'after that',
  'the same (?:applies|goes|holds|is true)',
  'the (?:former|latter|above)',
  '(?:in|for) (?:this|that|these|those|such|either|both) (?:case|cases|event|reason|reasons|way)',
  'if (?:so|not)\\b',
  'doing (?:so|this|that)',
  'das (?:ist|sind|war|geht|gilt|kostet|dauert|kann|muss|wird|hat|heißt|bedeutet|funktioniert)',
  'in (?:diesem|dem) fall',
];
const LEANS_BACK = new RegExp(`^(?:(?:${ENGLISH}|${GERMAN})(?![\\p{L}\\p{N}’'-])|(?:${PHRASES.join('|')}))`, 'iu');

// "It is possible to…", "It's best that…": expletive "it" leans on nothing.
const EXPLETIVE_IT = /^it(?:’s|'s|\s+is|\s+was)\s+(?:not\s+)?(?:[\p{L}-]+\s+)?(?:to|that)\b/iu;
// "Es gibt…", "Es ist möglich, …": expletive "es".
const EXPLETIVE_ES = /^es\s+(?:gibt|gab|geht\s+um|ist\s+(?:nicht\s+)?(?:möglich|nötig|wichtig|ratsam|sinnvoll|erlaubt))\b/iu;
// "Those who order before 2 pm…" says whom it means.
const THOSE_WHO = /^those\s+(?:who|whose|of\s+you)\b/iu;
// "Sie ist/hat/kann…" (she, or it for a feminine noun) leans back; "Sie können/erhalten/sind…", with
// the verb in the plural, is almost always the polite "you" of help texts.
const GERMAN_SIE = /^sie\s+(?!sind(?![\p{L}]))\p{L}+(?<!en|rn|ln|un)(?![\p{L}])/iu;
// List markers and opening punctuation come before the first word.
const LEAD = /^(?:[-*•·]\s+|\d{1,3}[.)]\s+)?["'“‘„(«»]*/u;

/** True when `sentence` opens with a word or phrase that needs the sentence before it. */
export function leansBack(sentence: string): boolean {
  const text = sentence.replace(LEAD, '');
  if (GERMAN_SIE.test(text)) return true;
  if (!LEANS_BACK.test(text)) return false;
  return !(EXPLETIVE_IT.test(text) || EXPLETIVE_ES.test(text) || THOSE_WHO.test(text));
}
