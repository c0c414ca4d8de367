import type { Locale } from '#workflows/locales.js';

/*
 * Does the visitor ask for a person? Checked in English always, plus the conversation's language.
 *
 * Approach: the message is normalised (lower case; accents and umlauts folded, so "möchte" reads
 * "mochte" and patterns write `moe?chte` to also accept "moechte"; "ß" → "ss"; punctuation runs become
 * a "." token), then matched against a few readable patterns per language:
 *
 * 1. The whole message is a request for a person, give or take fillers: "human", "agent please",
 *    "a real person!", "Mitarbeiter bitte", "Kundenservice".
 * 2. A request frame around a person noun: talking or connecting to one ("can I speak with a human",
 *    "transfer me to an operator", "mit einem Mitarbeiter sprechen", "an einen Berater weiterleiten"),
 *    wanting one ("I need a human", "ich hätte gern einen menschlichen Ansprechpartner"), contacting one
 *    ("how do I contact customer service"), or someone from support / "jemand vom Support".
 *
 * A person noun alone is not enough: product questions mention humans, agents and people all the time
 * ("safe for human skin", "human resources policy", "is the agent software free", "how many people fit
 * in the tent"). Compound uses ("agent software", "Agent-Software", "human resources") are excluded by
 * a short list of words that cannot follow a person here. A frame closely preceded in its clause by a
 * negation ("I don't want to talk to a human", "ich möchte nicht mit einem Menschen sprechen") does not
 * count.
 *
 * Decided on purpose:
 * - "Do you have agents in Spain?" is false: it asks about the company (sales agents, offices), not for
 *   a chat; so are "is there an agent in Berlin" and "I need an agent to sell my house". "Agent" counts
 *   in a wanting frame only as a whole request ("I need an agent", "I want a live agent now").
 * - "Are you a real person?" / "Is this a bot?" is false: the assistant can answer that itself (and the
 *   AI notice already says so); only an explicit request hands over.
 * - "How do I contact customer service?" is true: in this chat, the person is the answer.
 * - A bare "support" or "help" is false (the assistant is support); "customer service" alone is true.
 * - A German message with an English-only locale is false: the locale picks the second language.
 */

/** True when the visitor asks to talk to a person rather than the AI assistant. */
export function asksForHuman(text: string, locale: Locale): boolean {
  const normalised = normalise(text);
  if (!normalised) return false;
  return languagesFor(locale).some((language) => matches(normalised, language));
}

interface LanguagePatterns {
  /** The whole message (punctuation dropped) is a request for a person. */
  wholeMessage: RegExp;
  /** Request frames found anywhere in the message; each needs the `g` flag. */
  frames: RegExp[];
  /** Words that, shortly before a frame in the same clause, negate it. */
  negations: Set<string>;
}

function languagesFor(locale: Locale): LanguagePatterns[] {
  return locale === 'de' ? [english, german] : [english];
}

function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[’‘`´]/g, "'")
    .replace(/[.!?,;:¿¡]+/g, ' . ')
    .replace(/[^\p{L}\p{N}'. ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function matches(text: string, language: LanguagePatterns): boolean {
  if (language.wholeMessage.test(text.replace(/ ?\. ?/g, ' ').trim())) return true;
  return language.frames.some((frame) => [...text.matchAll(frame)].some((match) => !negated(text, match.index, language)));
}

/** A negation among the (at most four) words before the match, within its clause. */
function negated(text: string, index: number, language: LanguagePatterns): boolean {
  const clause = text.slice(0, index).split(' . ').pop() ?? '';
  return clause
    .split(' ')
    .slice(-4)
    .some((word) => language.negations.has(word));
}

const pattern = (source: string) => new RegExp(source, 'g');
const whole = (source: string) => new RegExp(`^${source}$`);

// ---------------------------------------------------------------------------------------------------
// English

// Who the visitor might ask for, with the words that may stand before it.
const EN_DETERMINER = String.raw`(?:(?:a|an|the|some|your|one of your|any) )?`;
const EN_ADJECTIVE = String.raw`(?:(?:real|live|actual|human|proper|physical) )?`;
const EN_PERSON = String.raw`(?:human(?: being)?s?|person|agents?|operators?|representatives?|reps?|someone|somebody|anyone|anybody|staff(?: members?)?|team members?|employees?|managers?|supervisors?|customer (?:service|support|care)(?: (?:agents?|reps?|representatives?|team|department))?|(?:tech |technical )?support(?: (?:agents?|team|staff|person|reps?|representatives?|desk))?|help ?desk|service desk|your (?:team|staff|people))`;
// Words that make the person noun part of a thing: "agent software", "human resources", "human skin".
const EN_NOT_A_PERSON = String.raw`(?! (?:software|app|apps|application|tool|tools|license|licence|licenses|plan|plans|seat|seats|account|accounts|mode|version|api|sdk|feature|features|module|setting|settings|dashboard|role|roles|resources|resource|skin|body|hair|error|errors|rights|language|portal|interface|hours|policy|page|number|phone|email|address|ticket|tickets|system)\b)`;
// Where a wanting frame must end: the request is the whole clause, or goes on with what the person is for.
const EN_REQUEST_END = String.raw`(?=$| \.| (?:please|pls|plz|now|asap|instead|here|on the line|who|that|to (?:help|talk|speak|chat|assist|answer|call|contact|look))\b)`;
const EN_FILLER = String.raw`(?:hi|hello|hey|ok|okay|please|pls|plz|just|now|yes|yeah|i want|i need|i'd like|give me|get me|can i have|talk to|speak to|chat with|a|an|the|to)`;

const english: LanguagePatterns = {
  wholeMessage: whole(
    String.raw`(?:${EN_FILLER} )*(?:(?:real|live|actual) )?(?:human(?: being)?s?|person|agent|operator|representative|rep|customer (?:service|support|care)|support (?:agent|team|person|rep)|live (?:chat|support|agent|person|operator)|human (?:agent|support|help)|real (?:human|person|agent|people)|staff)(?: (?:please|pls|plz|now|asap|thanks|thank you|thx|right now))*`,
  ),
  frames: [
    // "can I speak with a human", "talk to someone", "live chat with a person", "speak directly to an agent"
    pattern(
      String.raw`\b(?:talk|speak|chat|converse|communicate|get in touch|be in touch|get through)(?: \w+){0,2}? (?:to|with) ${EN_DETERMINER}${EN_ADJECTIVE}${EN_PERSON}\b${EN_NOT_A_PERSON}`,
    ),
    // "connect me to customer service", "put me through to a live agent", "escalate this to a manager"
    pattern(
      String.raw`\b(?:connect|transfer|forward|redirect|put|pass|hand|route|escalate|switch|send)(?: me| us| this| my \w+)(?: \w+){0,2}? (?:to|with) ${EN_DETERMINER}${EN_ADJECTIVE}${EN_PERSON}\b${EN_NOT_A_PERSON}`,
    ),
    // "I need a human", "can I get a representative", "give me a real person", "I want a live agent now"
    pattern(
      String.raw`\b(?:want|need|like|prefer|request|demand|get|have|give me|find me)(?: to (?:have|get|see|reach))? ${EN_DETERMINER}(?:(?:real|live|actual) )?(?:human(?: being)?|(?:real|live|actual) person|(?:human |live |real )?(?:agent|operator)|representative|rep|(?:customer service|support) (?:agent|rep|representative|person)|human support|live support|live chat)${EN_REQUEST_END}`,
    ),
    // "is there a human I can talk to", "anyone here we could chat with"
    pattern(
      String.raw`\b(?:human|person|agent|someone|somebody|anyone|anybody|representative|operator)(?: here)? (?:i|we) (?:can|could|may) (?:talk|speak|chat|write)\b`,
    ),
    // "someone from support", "a person from your team"
    pattern(
      String.raw`\b(?:someone|somebody|anyone|anybody|a person|a human|an agent|a real person) from (?:your |the )?(?:support|team|customer service|customer support|staff|company|shop|store|sales|service)\b`,
    ),
    // "I'd like help from a human"
    pattern(
      String.raw`\bhelp from ${EN_DETERMINER}${EN_ADJECTIVE}(?:human|person|agent|someone|somebody|staff|support team|employee)\b${EN_NOT_A_PERSON}`,
    ),
    // "how do I contact customer service", "can I reach a human" (a bare "contact person" is a role, not a request)
    pattern(
      String.raw`\b(?:contact|reach|call|email|e mail|message|phone|ring)(?: \w+)? (?:(?:a|an|the|your|some) ${EN_ADJECTIVE}(?:human|person|agent|operator|representative|manager)|customer (?:service|support|care)|support(?: team)?|someone|somebody|your (?:team|staff))\b${EN_NOT_A_PERSON}`,
    ),
    // "this bot is useless. human please"
    pattern(String.raw`\b(?:(?:real|live|actual) )?(?:human|agent|operator|representative|person) (?:please|pls|plz)\b`),
  ],
  negations: new Set(["don't", 'dont', 'not', 'never', 'no', "doesn't", 'doesnt', "didn't", 'without', "won't", 'wont']),
};

// ---------------------------------------------------------------------------------------------------
// German (umlauts folded: "ö" → "o", so `oe?` accepts "ö", "oe" and "o")

const DE_DETERMINER = String.raw`(?:(?:einen|einem|einer|eine|ein|den|dem|der|die|das|ihrem|ihren|ihrer|ihre|eurem|euren|eurer|eure|deinem|deinen|deiner|irgendeinem|irgendeiner) )?`;
const DE_ADJECTIVE = String.raw`(?:(?:echte[nmrs]?|richtige[nmrs]?|menschliche[nmrs]?|lebendige[nmrs]?|reale[nmrs]?|zustae?ndige[nmrs]?|persoe?nliche[nmrs]?|kompetente[nmrs]?) )?`;
const DE_PERSON = String.raw`(?:mensch(?:en)?|person(?:en)?|mitarbeiter(?:in|innen|n)?|berater(?:in|innen|n)?|agent(?:en|in|innen)?|ansprechpartner(?:in|innen|n)?|kunden(?:service|dienst|support|betreuung)|kunden(?:berater|betreuer)(?:in|innen|n)?|(?:support|service)(?: ?mitarbeiter(?:in|innen|n)?| ?team)?|team|operator|jemand(?:em|en)?)(?: (?:vom|von|aus dem|aus ihrem|aus eurem) \w+)?`;
const DE_NOT_A_PERSON = String.raw`(?! (?:software|app|lizenz|version|tarif|konto|account|modus|zugang|haut|rechte|ressourcen|funktion|programm|nummer)\b)`;
const DE_TALK = String.raw`(?:sprechen|reden|chatten|schreiben|telefonieren|kommunizieren|unterhalten|austauschen|verbunden|verbinden|verbinde|kontakt)`;
const DE_HAND_OVER = String.raw`(?:weiterleiten|weiter|weitergeben|durchstellen|durch|verbinden|ue?bergeben|verweisen)`;
const DE_FILLER = String.raw`(?:hallo|hi|hey|ok|okay|ja|bitte|jetzt|sofort|gerne?|ich will|ich moe?chte|ich brauche|einen|eine|ein|einem|einer|mit|zu|zum|zur|den|dem)`;

const german: LanguagePatterns = {
  wholeMessage: whole(
    String.raw`(?:${DE_FILLER} )*${DE_ADJECTIVE}(?:mensch(?:en)?|person|mitarbeiter(?:in)?|berater(?:in)?|agent(?:en|in)?|ansprechpartner(?:in)?|kunden(?:service|dienst|support|betreuung)|(?:support|service) ?mitarbeiter(?:in)?|support ?team|live ?chat|operator)(?: (?:bitte|jetzt|sofort|danke|schnell))*`,
  ),
  frames: [
    // "mit einem Mitarbeiter sprechen", "mit jemandem vom Kundenservice reden", "mit einem Menschen in Kontakt treten"
    pattern(String.raw`\bmit ${DE_DETERMINER}${DE_ADJECTIVE}${DE_PERSON}\b${DE_NOT_A_PERSON}(?: \S+){0,5}? ${DE_TALK}\b`),
    // "verbinden Sie mich bitte mit einem Berater", "ich will sprechen mit einem Menschen", "Live-Chat mit einem Mitarbeiter"
    pattern(
      String.raw`\b(?:${DE_TALK}|live ?chat)(?: \w+){0,3}? mit ${DE_DETERMINER}${DE_ADJECTIVE}${DE_PERSON}\b${DE_NOT_A_PERSON}`,
    ),
    // "an einen Mitarbeiter weiterleiten", "leiten Sie mich an einen Berater weiter", "zu einem Mitarbeiter durchstellen"
    pattern(
      String.raw`\b(?:an|zu) ${DE_DETERMINER}${DE_ADJECTIVE}${DE_PERSON}\b${DE_NOT_A_PERSON}(?: \w+){0,3}? ${DE_HAND_OVER}\b`,
    ),
    pattern(
      String.raw`\b${DE_HAND_OVER}(?: \w+){0,3}? (?:an|zu) ${DE_DETERMINER}${DE_ADJECTIVE}${DE_PERSON}\b${DE_NOT_A_PERSON}`,
    ),
    // "ich möchte einen Mitarbeiter", "ich hätte gern einen menschlichen Ansprechpartner" (subject first: "brauche ich einen Berater?" asks a question)
    pattern(
      String.raw`\b(?:ich|wir) (?:moe?chte|moe?chten|will|wollen|brauche|brauchen|benoe?tige|verlange|wue?nsche|hae?tte gerne?|hae?tten gerne?|wue?rde gerne?)(?: \w+){0,2}? (?:einen|eine|ein|jemanden) ${DE_ADJECTIVE}(?:mensch(?:en)?|mitarbeiter(?:in)?|berater(?:in)?|agent(?:en|in)?|ansprechpartner(?:in)?|kundenberater(?:in)?|kundenbetreuer(?:in)?|(?:support|service) ?mitarbeiter(?:in)?|(?:echte|richtige)[nr]? person)\b${DE_NOT_A_PERSON}`,
    ),
    // "gibt es einen Menschen, mit dem ich sprechen kann?", "gibt es hier einen echten Menschen?"
    pattern(
      String.raw`\bgibt es (?:hier |auch )?(?:einen|eine) (?:(?:echte|richtige)[nr]? )?(?:mensch(?:en)?|(?:echte|richtige) person)\b`,
    ),
    pattern(String.raw`\b${DE_PERSON}(?: \.)? (?:mit dem|mit der|mit denen) (?:ich|wir) (?:sprechen|reden|chatten|schreiben)\b`),
    // "wie erreiche ich den Kundenservice", "den Kundendienst kontaktieren"
    pattern(
      String.raw`\b(?:erreiche|erreichen|kontaktiere|kontaktieren|anrufen|rufe)(?: \w+){0,2}? (?:den |einen |eine |ihren |ihre |das )?(?:kunden(?:service|dienst|support)|support|mitarbeiter|berater|menschen|ansprechpartner|team)\b`,
    ),
    pattern(
      String.raw`\b(?:den|einen|eine|ihren|ihre|das) (?:kunden(?:service|dienst|support)|support|mitarbeiter|ansprechpartner|menschen|team)(?: \w+){0,2}? (?:erreichen|kontaktieren|anrufen)\b`,
    ),
    // "menschlicher Ansprechpartner", "jemand vom Support", "Mitarbeiter bitte", "bitte einen Menschen"
    pattern(String.raw`\bmenschliche[nmrs]? (?:ansprechpartner|mitarbeiter|berater)`),
    pattern(String.raw`\bjemand(?:en|em)? (?:vom|von|aus dem|aus ihrem) (?:support|kundenservice|kundendienst|team|service)\b`),
    pattern(
      String.raw`\b(?:mensch|mitarbeiter(?:in)?|berater(?:in)?|agent|kundenservice|kundendienst|ansprechpartner|echte person|echten menschen|support mitarbeiter) bitte\b`,
    ),
    pattern(
      String.raw`\bbitte (?:einen |eine |ein )?(?:(?:echte|richtige)[nr]? )?(?:mensch(?:en)?|mitarbeiter(?:in)?|berater(?:in)?|person)(?=$| \.)`,
    ),
  ],
  negations: new Set(['nicht', 'kein', 'keine', 'keinen', 'keinem', 'keiner', 'nie', 'niemals', 'ohne']),
};
