import { CONTEXT_PREPOSITIONS, FILLER_WORDS, isLexiconWord, isQuestionWord, LONGEST_PHRASE, nounMeaning, PARTICLES, STOP_WORDS, verbMeaning, type ActionClass } from './selection-lexicon.js';
import type { VerbMeaning } from './selection-lexicon.js';
import { catalogSensesOf, relatedStemsOf } from './related-words.js';
import { splitWords, stemWord } from './split-words.js';

/** Kinds of argument value a request can carry; each hints at a parameter the right tool has. */
export type ValueKind =
  'text' | 'name' | 'person' | 'url' | 'email' | 'repository' | 'path' | 'identifier' | 'amount' | 'percent' | 'time' | 'version' | 'file' | 'commit' | 'number' | 'channel' | 'user';

/**
 * The words the tools of a catalog use, so that the parser can tell vocabulary from names: in
 * "remove Dana from project 4545" no tool knows "Dana", so it is an argument, not a keyword.
 */
export interface Vocabulary {
  /** Whether a stemmed word is a term of some tool. */
  has(term: string): boolean;
  /** Whether a stemmed word is a term of some tool, or a prefix of one, or has one as a prefix (4 letters at least). */
  knows(term: string): boolean;
}

/** A request taken apart: the action it asks for, the words to match and the argument values it carries. */
export interface ParsedRequest {
  /** Classes of operation the main verb allows (`read` for a question); empty when there is no verb. */
  classes: ActionClass[];
  /** Stemmed terms to look up, each with its weight: 1 for the request's own words, less for lexicon expansions. */
  terms: Map<string, number>;
  /** Stemmed nouns that an argument value follows ("issue 42" → `issu`): the right tool likely has a parameter of that name. */
  parameterNouns: Set<string>;
  /** Kinds of argument value found. */
  valueKinds: Set<ValueKind>;
  /** Stems of the words written in the plural ("list my workspaces"): a list, not one item, is wanted. */
  plurals: Set<string>;
  /**
   * Stemmed nouns of what the request acts on: after the main verb, before the first preposition
   * ("the urgent tag" in "remove the urgent tag from task 8080"), with their lexicon meanings.
   */
  objectNouns: Set<string>;
}

interface Token {
  /** Lower-case word, or undefined for an argument value. */
  word?: string;
  /** Whether the word was written with a capital first letter ("Dana"). */
  capitalised?: boolean;
  value?: ValueKind;
  /** For identifiers: their prefix, which may name the kind of object (`invoice_8812`). */
  names?: string;
}

// Order matters: a URL contains slashes and dots, an email contains dots, money contains numbers.
const VALUE_PATTERNS: Array<[ValueKind, RegExp]> = [
  ['text', /(^|[\s:(])(["\u201C\u2018']).+?["\u201D\u2019'](?=$|[\s,.;:!?)])/gu],
  ['url', /\bhttps?:\/\/\S+/g],
  ['email', /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g],
  ['channel', /(^|\s)#[\w-]+/g],
  ['user', /(^|\s)@[\w.-]+/g],
  ['path', /\b[\w.-]+(?:\/[\w.-]+){2,}|\b[\w-]+\/[\w.-]+\.(?:md|js|ts|py|json|txt|ya?ml|go|rs|java|html?|css|c|h)\b/g],
  ['repository', /\b[A-Za-z\d][\w.-]*\/[\w.-]*[A-Za-z\d]\b/g],
  ['identifier', /\b[a-z]{2,6}_[A-Za-z\d_]+\b/g],
  ['identifier', /\b[A-Z][A-Za-z]?\d[A-Z\d]{5,}\b|\b[A-Z]{1,2}[A-Z\d]*\d[A-Z\d]{4,}\b/g],
  ['amount', /[$\u20AC\u00A3]\s?\d[\d,]*(?:\.\d+)?|\b\d[\d,]*(?:\.\d+)?\s?(?:dollars?|usd|eur|euros?|gbp|pounds|cents?)\b/gi],
  ['percent', /\b\d+(?:\.\d+)?\s?%/g],
  ['time', /\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b/gi],
  ['file', /\b[\w-]+\.(?:pdf|png|jpe?g|gif|docx?|xlsx?|csv|txt|md|zip|js|ts|json|ya?ml|py|go|rs|html?|css)\b/gi],
  ['version', /\bv?\d+(?:\.\d+)+\b|\bv\d+\b/g],
  ['commit', /\b(?=[a-f\d]*[a-f])(?=[a-f\d]*\d)[a-f\d]{7,40}\b/g],
  ['number', /\b\d+\b/g],
];
// Words after which the next word is a name, not a keyword ("the user octocat", "a repo called dotfiles").
const NAME_INTRODUCERS = new Set('user username called named titled login handle'.split(' '));
// Nouns that follow "user" without being a name ("user group", "user profile").
const NOT_NAMES = new Set('group groups profile profiles list lists task tasks account accounts id ids info information presence photo session sessions'.split(' '));
// Argument values are replaced by a private-use character between NULs while the request is split.
const MARKER_BASE = 0xe000;
const SEPARATOR = String.fromCharCode(0);
// Values that refer to an existing object (`owner/repo` is handled on its own: it fits tools taking both).
const REFERENCE_KINDS = new Set<ValueKind>(['number', 'identifier', 'commit', 'name']);
// Words that only introduce a value ("id 2233", "number 7"): the noun before them is what the value is.
const VALUE_INTRODUCERS = new Set('id number no num'.split(' '));
// How much each kind of value says about what the request is about, as a term.
const VALUE_TERMS: Partial<Record<ValueKind, [string, number]>> = { channel: ['channel', 0.5], user: ['user', 0.4], file: ['file', 0.4], email: ['email', 0.3], url: ['url', 0.3] };

const EXPANSION_WEIGHT = 0.9;
// A related word from WordNet is weaker evidence than the lexicon's expansions: a sense may be the wrong one.
const SENSE_WEIGHT = 0.5;
const PHRASE_WORD_WEIGHT = 0.3;
const FIRST_PERSON = new Set('i me my mine myself im'.split(' '));
// Where people are named (a capitalised unknown word, an email, @handle), the right tool is about users or members.
const PERSON_KINDS = new Set<ValueKind>(['person', 'email', 'user']);
const PERSON_WEIGHT = 0.4;
// Adding a person to something is inviting them: Slack invites to a channel, Box and Asana add members.
const ADD_PERSON_TERMS = ['invit', 'member'];
const FILE_UPLOAD_WEIGHT = 0.4;
// Words after which a verb's object is new ("set a goal", "give me a payment link"), unless it is a read noun.
const INDEFINITE = new Set('a an new another'.split(' '));
const READ_NOUNS = new Set('list summary overview count breakdown history'.split(' ').map(stemWord));
// Nouns that name a property of something: in "the profile of user octocat" the user is what is read.
const ATTRIBUTE_NOUNS = new Set('detail info information profile status name email address description setting metadata property content owner id'.split(' ').map(stemWord));
// "drop task 9012 into the Done section": into/onto puts something somewhere.
const PLACING = new Set('into onto'.split(' '));
// Words a particle may follow at most: "bring file 6161 back".
const PARTICLE_DISTANCE = 4;
const LONGEST_COMPOUND = 3;
const FIRST_PERSON_WEIGHT = 0.5;
const PEOPLE_NOUNS = ['user', 'member', 'participant'];
const PEOPLE_WEIGHT = 0.5;
const VERB_EXPANSION_WEIGHT = 0.8;
const IDENTIFIER_NOUN_WEIGHT = 0.7;

/**
 * Parses a request: argument values (quoted text, URLs, emails, `owner/repo`, ids, amounts, numbers)
 * become hints about parameters instead of keywords; the main verb (or a question word) gives the
 * action; words and lexicon phrases become weighted terms.
 */
export function parseRequest(request: string, vocabulary?: Vocabulary): ParsedRequest {
  const tokens = tokenizeRequest(request);
  const terms = new Map<string, number>();
  const compounds = vocabulary ? compoundTerms(tokens, vocabulary) : [];
  if (vocabulary) markNames(tokens, vocabulary, compounds);
  const add = (term: string, weight: number): void => {
    if (!STOP_WORDS.has(term) && weight > (terms.get(term) ?? 0)) terms.set(term, weight);
  };
  const valueKinds = new Set<ValueKind>();
  const parameterNouns = new Set<string>();
  const stems = tokens.map((token) => (token.word === undefined ? undefined : stemWord(token.word)));
  for (const compound of compounds) add(compound.term, 1);
  for (const [position, token] of tokens.entries()) {
    if (token.value === undefined) continue;
    valueKinds.add(token.value);
    const valueTerm = VALUE_TERMS[token.value];
    if (valueTerm) add(stemWord(valueTerm[0]), valueTerm[1]);
    if (PERSON_KINDS.has(token.value)) for (const noun of PEOPLE_NOUNS) add(noun, PERSON_WEIGHT);
    if (token.names) {
      for (const noun of splitWords(token.names).map(stemWord)) {
        add(noun, IDENTIFIER_NOUN_WEIGHT);
        for (const synonym of nounMeaning(noun) ?? []) add(synonym, IDENTIFIER_NOUN_WEIGHT);
        parameterNouns.add(noun);
      }
    }
    // Only references name a parameter: "issue 42" is the number, "a task 'buy milk'" is a new task's name.
    if (REFERENCE_KINDS.has(token.value)) for (const noun of nounBefore(stems, position)) parameterNouns.add(noun);
  }
  const action = mainAction(stems, add);
  const classes = action.classes;
  // A name right after the verb is who it is done to ("remove bob from the organization", "follow gaearon").
  if (action.classes.length > 0 && tokens[action.end]?.value === 'name') {
    tokens[action.end] = { value: 'person' };
    valueKinds.add('person');
    for (const noun of PEOPLE_NOUNS) add(noun, PERSON_WEIGHT);
  }
  // Making something from a local file ("put report.xlsx into folder 5050") is uploading it.
  if (classes.includes('create') && valueKinds.has('file')) add('upload', FILE_UPLOAD_WEIGHT);
  if (classes.includes('create') && action.verbs.includes('add') && tokens.some((token) => token.value !== undefined && PERSON_KINDS.has(token.value))) {
    for (const term of ADD_PERSON_TERMS) add(term, PERSON_WEIGHT);
  }
  // Words of a lexicon phrase count for the phrase: "logged in" is about the current user, not about logs.
  const inPhrase = new Set<number>();
  for (let position = 0; position < stems.length; position++) {
    for (let length = Math.min(LONGEST_PHRASE, stems.length - position); length >= 1; length--) {
      const phrase = stems.slice(position, position + length);
      if (phrase.includes(undefined)) continue;
      const nouns = nounMeaning(phrase.join(' '));
      if (!nouns) continue;
      for (const noun of nouns) add(noun, EXPANSION_WEIGHT);
      if (length > 1) for (let inside = position; inside < position + length; inside++) inPhrase.add(inside);
      break;
    }
  }
  // The words of the main verb count as the API verbs the lexicon gives them, not as nouns: "show me my
  // playlists" is not about shows, unless the verb names itself ("star", "tag", "comment"). A verb of
  // change that the catalog uses as a word names itself too: APIs expose such actions as path segments
  // (`/player/pause`, `/deploys/{id}/lock`, `/participants/{id}/mute`). Read verbs ("show", "list",
  // "view") only frame a question, and their words are often nouns of the catalog.
  const namesAction = (stem: string): boolean => action.verbs.includes(stem) || (vocabulary !== undefined && classes.length > 0 && !classes.includes('read') && vocabulary.has(stem));
  for (let position = action.start; position < action.end; position++) if (stems[position] !== undefined && !namesAction(stems[position]!)) inPhrase.add(position);
  for (const [position, stem] of stems.entries()) if (stem !== undefined) add(stem, inPhrase.has(position) ? PHRASE_WORD_WEIGHT : 1);
  // A word the catalog does not use reaches the catalog's words for the same thing through WordNet.
  if (vocabulary)
    for (const stem of new Set(stems))
      if (stem !== undefined && !vocabulary.has(stem) && !STOP_WORDS.has(stem)) for (const related of catalogSensesOf(stem, vocabulary.has)) add(related, SENSE_WEIGHT);
  // "who …" asks about people: users, members.
  if (stems.find((stem) => stem !== undefined) === 'who') for (const noun of PEOPLE_NOUNS) add(noun, PEOPLE_WEIGHT);
  // APIs say "the authenticated user" where people say "my" and "I".
  if (stems.some((stem) => stem !== undefined && FIRST_PERSON.has(stem))) add('authenticat', FIRST_PERSON_WEIGHT);
  const plurals = new Set<string>();
  for (const [position, token] of tokens.entries()) if (token.word !== undefined && /[^s]s$/.test(token.word) && stems[position] !== token.word) plurals.add(stems[position]!);
  return { classes, terms, parameterNouns, valueKinds, plurals, objectNouns: objectNounsOf(tokens, stems, action, vocabulary) };
}

/** A word of the catalog written as two or three words of the request: "service account" → `serviceaccount`. */
function compoundTerms(tokens: readonly Token[], vocabulary: Vocabulary): Array<{ term: string; start: number; length: number }> {
  const found: Array<{ term: string; start: number; length: number }> = [];
  for (let start = 0; start < tokens.length; start++) {
    let joined = tokens[start]!.word;
    for (let length = 2; joined !== undefined && length <= LONGEST_COMPOUND && start + length <= tokens.length; length++) {
      const next = tokens[start + length - 1]!.word;
      if (next === undefined) break;
      joined += next;
      const term = stemWord(joined);
      if (vocabulary.has(term)) found.push({ term, start, length });
    }
  }
  return found;
}

/**
 * Words no tool of the catalog knows, and the lexicon neither, are names given as arguments ("remove
 * Dana from project 4545", "show the service frontend"): they become `name` values, and `person` when
 * capitalised inside the sentence and not followed by a noun the catalog knows ("the Marketing project").
 */
function markNames(tokens: Token[], vocabulary: Vocabulary, compounds: ReadonlyArray<{ start: number; length: number }>): void {
  const inCompound = new Set(compounds.flatMap(({ start, length }) => Array.from({ length }, (_, offset) => start + offset)));
  const original = tokens.map((token) => token.word);
  for (const [position, token] of tokens.entries()) {
    const word = token.word;
    if (word === undefined || inCompound.has(position) || word.length < 2) continue;
    const stem = stemWord(word);
    if (
      STOP_WORDS.has(stem) ||
      FILLER_WORDS.has(stem) ||
      CONTEXT_PREPOSITIONS.has(stem) ||
      VALUE_INTRODUCERS.has(stem) ||
      isLexiconWord(stem) ||
      vocabulary.knows(stem) ||
      catalogSensesOf(stem, vocabulary.has).length > 0
    )
      continue;
    const next = original[position + 1];
    const nextIsNoun = next !== undefined && vocabulary.knows(stemWord(next)) && !STOP_WORDS.has(stemWord(next)) && !CONTEXT_PREPOSITIONS.has(stemWord(next));
    tokens[position] = { value: token.capitalised && position > 0 && !nextIsNoun ? 'person' : 'name' };
  }
}

/** Nouns between the main verb and the first preposition, with their lexicon meanings and the verb's implied nouns. */
function objectNounsOf(tokens: readonly Token[], stems: ReadonlyArray<string | undefined>, action: MainAction, vocabulary: Vocabulary | undefined): Set<string> {
  const nouns = new Set<string>(action.nouns);
  let ownNouns = 0;
  let attributesOnly = true;
  for (let position = action.end; position < tokens.length; position++) {
    const stem = stems[position];
    const token = tokens[position]!;
    if (stem !== undefined && CONTEXT_PREPOSITIONS.has(stem)) {
      // "the profile of user octocat": past a property, the next phrase is the object.
      if (ownNouns > 0 && attributesOnly && stem === 'of') {
        attributesOnly = false;
        continue;
      }
      break;
    }
    if (token.value !== undefined) {
      const valueTerm = VALUE_TERMS[token.value];
      if (valueTerm) nouns.add(stemWord(valueTerm[0]));
      if (PERSON_KINDS.has(token.value)) for (const noun of PEOPLE_NOUNS) nouns.add(noun);
      for (const noun of token.names === undefined ? [] : splitWords(token.names).map(stemWord)) nouns.add(noun);
      continue;
    }
    if (stem === undefined || STOP_WORDS.has(stem) || FILLER_WORDS.has(stem) || isQuestionWord(stem)) continue;
    // "a copy of project 7070", "a list of files": a verb before "of" names the action, not the object;
    // so does a participle ("am I logged in", "tagged with"). "the urgent tag" is a noun.
    if (verbMeaning(stem) !== undefined && (stems[position + 1] === 'of' || /(ed|ing)$/.test(token.word!))) continue;
    ownNouns++;
    if (!ATTRIBUTE_NOUNS.has(stem)) attributesOnly = false;
    nouns.add(stem);
    for (const meaning of nounMeaning(stem) ?? []) nouns.add(meaning);
    if (vocabulary && !vocabulary.has(stem)) for (const related of catalogSensesOf(stem, vocabulary.has)) nouns.add(related);
  }
  return nouns;
}

interface MainAction {
  /** Classes of operation the verb allows; empty without a verb. */
  classes: ActionClass[];
  /** Position of the verb's first word (of the question word, or 0 without either). */
  start: number;
  /** Position after the verb (after a question word, or 0 without either): where its object starts. */
  end: number;
  /** API verbs of the verb. */
  verbs: readonly string[];
  /** Nouns the verb implies ("upload" → file). */
  nouns: readonly string[];
}

/** Finds the main verb among the first words and adds its API verbs and implied nouns. */
function mainAction(stems: ReadonlyArray<string | undefined>, add: (term: string, weight: number) => void): MainAction {
  let seen = 0;
  for (let position = 0; position < stems.length && seen < 3; position++) {
    const stem = stems[position];
    if (stem === undefined) continue;
    // A filler may open a verb phrase ("go back to version 3"), not a verb alone ("go ahead and delete").
    const found = verbAt(stems, position);
    if (FILLER_WORDS.has(stem) && (found === undefined || found.end - position < 2)) continue;
    if (seen === 0 && isQuestionWord(stem)) return { classes: ['read'], start: position + 1, end: position + 1, verbs: [], nouns: [] };
    if (found) {
      const { meaning, end } = found;
      for (const verb of meaning.verbs) add(verb, VERB_EXPANSION_WEIGHT);
      for (const noun of meaning.nouns) add(noun, VERB_EXPANSION_WEIGHT);
      const classes = [...meaning.classes];
      // "set a goal", "give me a payment link": an indefinite object is a new one.
      let next = end;
      while (next < stems.length && stems[next] !== undefined && FIRST_PERSON.has(stems[next]!)) next++;
      // An update verb with a new object creates it: "set a goal" is not changing one.
      if (!classes.includes('create') && INDEFINITE.has(stems[next] ?? '') && !READ_NOUNS.has(stems[next + 1] ?? '')) {
        if (!classes.includes('read')) classes.length = 0;
        classes.push('create');
      }
      if (stems.some((word) => word !== undefined && PLACING.has(word))) for (const placing of ['update', 'create'] as const) if (!classes.includes(placing)) classes.push(placing);
      return { classes, start: position, end: found.particle ? position + 1 : end, verbs: meaning.verbs, nouns: meaning.nouns };
    }
    // A word of a lexicon phrase alone ("bring" of "bring back") has no meaning of its own on purpose.
    if (seen === 0 && !STOP_WORDS.has(stem) && !isLexiconWord(stem)) {
      const sense = senseVerbAt(stem);
      if (sense) {
        for (const verb of sense.verbs) add(verb, SENSE_WEIGHT);
        return { classes: [...sense.classes], start: position, end: position + 1, verbs: sense.verbs, nouns: [] };
      }
    }
    if (!STOP_WORDS.has(stem)) seen++;
  }
  return { classes: [], start: 0, end: 0, verbs: [], nouns: [] };
}

/**
 * The meaning of an opening word the lexicon does not know, through WordNet: "throw away the draft" is
 * removing it, "swap my avatar" changing it. The related words (synonyms and hypernyms of its senses,
 * noun senses mixed in) that the lexicon reads as verbs vote for their classes; a class wins only with
 * more votes than any other, since a tie means the senses disagree ("buy": get or pay).
 */
function senseVerbAt(stem: string): VerbMeaning | undefined {
  const meanings = relatedStemsOf(stem)
    .map((related) => verbMeaning(related))
    .filter((meaning) => meaning !== undefined);
  const votes = new Map<ActionClass, number>();
  for (const meaning of meanings) for (const actionClass of meaning.classes) votes.set(actionClass, (votes.get(actionClass) ?? 0) + 1);
  const [first, second] = [...votes.entries()].sort((left, right) => right[1] - left[1]);
  if (first === undefined || (second !== undefined && second[1] === first[1])) return undefined;
  const winner = first[0];
  return { classes: [winner], verbs: [...new Set(meanings.filter((meaning) => meaning.classes.includes(winner)).flatMap((meaning) => meaning.verbs))], nouns: [] };
}

/** The verb (or verb phrase, or verb with a later particle) at a position. */
function verbAt(stems: ReadonlyArray<string | undefined>, position: number): { meaning: VerbMeaning; end: number; particle: boolean } | undefined {
  for (let length = Math.min(LONGEST_PHRASE, stems.length - position); length >= 1; length--) {
    const phrase = stems.slice(position, position + length);
    if (phrase.includes(undefined)) continue;
    // A separable particle first: "bring file 6161 back" is restoring, not bringing.
    if (length === 1) {
      for (let later = position + 2; later < Math.min(stems.length, position + 2 + PARTICLE_DISTANCE); later++) {
        const particle = stems[later];
        if (particle === undefined || !PARTICLES.has(particle)) continue;
        const separable = verbMeaning(`${phrase[0]} ${particle}`);
        if (separable) return { meaning: separable, end: later + 1, particle: true };
      }
    }
    const meaning = verbMeaning(phrase.join(' '));
    if (meaning) return { meaning, end: position + length, particle: false };
  }
  return undefined;
}

/** The nouns an argument value belongs to: the word (or lexicon phrase) right before it. */
function nounBefore(stems: ReadonlyArray<string | undefined>, position: number): string[] {
  let end = position;
  if (end > 0 && stems[end - 1] !== undefined && VALUE_INTRODUCERS.has(stems[end - 1]!)) end--;
  for (let length = Math.min(LONGEST_PHRASE, end); length >= 1; length--) {
    const phrase = stems.slice(end - length, end);
    if (phrase.includes(undefined)) continue;
    const nouns = nounMeaning(phrase.join(' '));
    if (nouns) return [...nouns];
  }
  const previous = stems[end - 1];
  return previous === undefined || STOP_WORDS.has(previous) || VALUE_INTRODUCERS.has(previous) ? [] : [previous];
}

/** Splits a request into words and argument values, in order. */
export function tokenizeRequest(request: string): Token[] {
  const values: Token[] = [];
  let text = request;
  for (const [kind, pattern] of VALUE_PATTERNS) {
    text = text.replace(pattern, (match: string, ...groups: unknown[]) => {
      // `snake_case` words are vocabulary; `cus_9s6X…` (with a digit) is an id.
      if (kind === 'identifier' && match.includes('_') && !/\d/.test(match)) return match;
      const lead = typeof groups[0] === 'string' && (kind === 'text' || kind === 'channel' || kind === 'user') ? groups[0] : '';
      values.push(valueToken(kind, match.slice(lead.length)));
      return `${lead} ${SEPARATOR}${String.fromCharCode(MARKER_BASE + values.length - 1)}${SEPARATOR} `;
    });
  }
  const tokens: Token[] = [];
  let nameExpected = false;
  for (const part of text.split(SEPARATOR)) {
    const value = part.length === 1 ? values[part.charCodeAt(0) - MARKER_BASE] : undefined;
    if (value) {
      tokens.push(value);
      nameExpected = false;
      continue;
    }
    for (const word of splitRequestWords(part)) {
      if (nameExpected && !STOP_WORDS.has(stemWord(word.word)) && !NOT_NAMES.has(word.word)) {
        tokens.push({ value: 'name' });
        nameExpected = false;
        continue;
      }
      nameExpected = NAME_INTRODUCERS.has(word.word);
      // Mixed letters and digits ("spambot99") are names or ids, not vocabulary.
      tokens.push(/\d/.test(word.word) && /[a-z]/.test(word.word) ? { value: 'identifier' } : word);
    }
  }
  return tokens;
}

function valueToken(kind: ValueKind, text: string): Token {
  if (kind !== 'identifier') return { value: kind };
  const prefix = /^([a-z]{2,6})_/.exec(text)?.[1];
  // A prefix may name the kind of object (`invoice_8812`, `user_42`): it counts where the catalog uses it as a word.
  return prefix === undefined ? { value: kind } : { value: kind, names: prefix };
}

/** Words of a request; "re-run" and "re-open" stay one word, apostrophes stay inside words. */
function splitRequestWords(text: string): Array<{ word: string; capitalised: boolean }> {
  const joined = text.replace(/\bre-(?=[a-z])/gi, 're').replace(/(\p{L})['\u2019](\p{L})/gu, '$1$2');
  // Split as splitWords does, keeping whether each word started with a capital (names do).
  return joined
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .flatMap((part) => {
      const capitalised = /^\p{Lu}\p{Ll}/u.test(part);
      return splitWords(part).map((word, index) => ({ word, capitalised: capitalised && index === 0 }));
    });
}
