/**
 * The vocabulary the selector uses to bridge how people ask for something and how HTTP APIs name it.
 * Curated by hand from the verbs and nouns of common REST APIs (source hosting, payments, chat, file
 * storage, task tracking, telephony, AI and cluster APIs); every entry is an everyday word, phrase or
 * idiom ("leave a comment", "what's in", "who can see", "on my plate"), never a tool id or a request
 * of the evaluation. Words are written plainly here and stemmed when the tables are built, so
 * inflections need no entries. Grammar rather than entries does the rest (parse-request.ts): the
 * object of a request against its context after a preposition, names as arguments, separable
 * phrasal verbs, an indefinite object asking for a new one.
 */
import { splitWords, stemWord } from './split-words.js';

/** The four kinds of effect an operation has; requests and tools are both classified into them. */
export type ActionClass = 'create' | 'read' | 'update' | 'delete';

/** What a word of a request says about the action wanted. */
export interface VerbMeaning {
  /** The classes of operation that can serve it ("close" can be an update or a delete). */
  classes: readonly ActionClass[];
  /** API verbs (stemmed) to look for in tool texts, the word itself included. */
  verbs: readonly string[];
  /** API nouns (stemmed) the word implies: "approve" a pull request means creating a review. */
  nouns: readonly string[];
}

type VerbEntry = [words: string, classes: ActionClass[], verbs: string, nouns?: string];

// [user words (a space-separated list; `_` joins a phrase), classes, API verbs, implied nouns].
const VERB_ENTRIES: VerbEntry[] = [
  ['open file report log raise submit', ['create'], 'create open submit'],
  // "leave" alone is going away ("leave #general"); leaving a comment or a note is writing one.
  ['leave_a_comment leave_a_note leave_a_message leave_feedback leave_a_review leave_a_reply', ['create'], 'create comment add', 'comment'],
  ['create new make start begin set_up setup establish initiate spin_up', ['create'], 'create start'],
  ['write draft compose', ['create'], 'create write'],
  ['publish ship cut', ['create'], 'create publish'],
  // Software releases are published; phone numbers and resources are released (given up).
  ['release', ['create', 'delete'], 'create publish release delete'],
  ['add include insert put', ['create', 'update'], 'add create insert'],
  ['invite', ['create'], 'invite add'],
  ['upload', ['create'], 'upload create'],
  ['post send tell say announce broadcast', ['create'], 'post send create', 'message'],
  ['message', ['create'], 'send post create', 'message'],
  ['notify alert', ['create'], 'create send', 'webhook notification'],
  ['share', ['create'], 'share create'],
  ['schedule', ['create'], 'schedule'],
  ['remind', ['create'], 'create add', 'reminder'],
  ['save store keep record', ['create', 'update'], 'create save store set'],
  ['sign_up register onboard enroll', ['create'], 'create register'],
  ['copy duplicate clone make_a_copy create_a_copy', ['create'], 'copy duplicate'],
  ['ask', ['create', 'read'], 'ask request'],
  ['assign give hand', ['create', 'update'], 'assign add'],
  ['attach', ['create'], 'attach add upload', 'attachment'],
  ['tag label categorize', ['create', 'update'], 'add tag label'],
  ['follow', ['create'], 'follow'],
  ['watch subscribe', ['create', 'update'], 'subscribe watch set', 'subscription'],
  ['pin', ['create'], 'pin add'],
  ['react like', ['create'], 'react add'],
  ['comment reply respond answer', ['create'], 'create comment reply', 'comment'],
  ['approve', ['create', 'update'], 'approve'],
  ['accept', ['create', 'update'], 'accept approve'],
  ['reject decline deny', ['update', 'delete'], 'reject decline'],
  ['block ban', ['create'], 'block'],
  ['lock freeze', ['update'], 'lock'],
  ['merge', ['create', 'update'], 'merge'],
  ['trigger run rerun retry restart kick_off dispatch', ['create'], 'run rerun dispatch trigger'],
  ['pay', ['create'], 'pay'],
  ['charge bill', ['create'], 'charge create'],
  ['refund', ['create'], 'refund'],
  ['transfer', ['create', 'update'], 'transfer'],
  ['capture', ['create'], 'capture'],
  ['confirm', ['create', 'update'], 'confirm'],
  ['verify validate', ['create', 'read'], 'verify check'],
  ['download export', ['read'], 'download get export'],
  ['get fetch retrieve obtain pull grab', ['read'], 'get retrieve'],
  ['show view see display read check look tell_me give_me', ['read'], 'get list'],
  ['list enumerate browse', ['read'], 'list'],
  ['find search look_up lookup query locate', ['read'], 'search find list'],
  ['count', ['read'], 'count get'],
  ['preview', ['read'], 'preview'],
  ['analyze analyse summarize summarise', ['read', 'create'], 'analyze summarize'],
  ['update change edit modify alter adjust set configure fix', ['update'], 'update set edit'],
  ['rename retitle', ['update'], 'rename update'],
  ['move', ['update'], 'move update'],
  ['mark flag complete finish resolve', ['update'], 'mark complete update'],
  ['close', ['update', 'delete'], 'close update'],
  ['reopen', ['update'], 'reopen update'],
  ['archive', ['update', 'delete'], 'archive'],
  ['unarchive restore recover undelete get_back bring_back put_back untrash roll_back revert go_back', ['update', 'create'], 'restore unarchive'],
  ['delete remove erase destroy drop discard purge trash wipe get_rid_of take_out', ['delete'], 'delete remove'],
  ['cancel abort stop halt terminate kill end hang_up', ['delete', 'update'], 'cancel stop end delete'],
  ['revoke', ['delete'], 'revoke'],
  ['unfollow', ['delete'], 'unfollow remove delete', 'follow'],
  ['unwatch unsubscribe', ['delete'], 'unsubscribe remove delete', 'subscription'],
  ['unpin', ['delete'], 'remove delete', 'pin'],
  ['unblock', ['delete'], 'unblock remove delete', 'block'],
  ['unlock', ['delete', 'update'], 'unlock remove delete', 'lock'],
  ['unassign', ['delete'], 'unassign remove delete', 'assignee assign'],
  ['untag unlabel', ['delete'], 'remove delete', 'tag label'],
  ['kick eject', ['delete'], 'remove'],
  ['leave quit exit', ['delete'], 'leave'],
  ['join enter', ['create'], 'join'],
  ['void invalidate', ['update'], 'void'],
  ['finalize', ['update'], 'finalize'],
  ['expire', ['update'], 'expire'],
  ['detach', ['delete'], 'detach remove'],
  ['dismiss', ['update'], 'dismiss'],
  ['mute snooze pause silence', ['update', 'create'], 'snooze set'],
  ['grant allow permit', ['create', 'update'], 'add grant', 'permission'],
  ['deactivate disable suspend turn_off switch_off', ['update', 'delete'], 'disable suspend'],
  ['enable activate turn_on switch_on', ['update', 'create'], 'enable create'],
  ['reverse undo', ['create', 'update'], 'reverse'],
];

// [user words or `_`-joined phrases, API nouns they mean].
const NOUN_ENTRIES: Array<[words: string, nouns: string]> = [
  // General English only: each entry names a thing the way people do and the way APIs of any domain do.
  // Entries written for one API (its product words, its id prefixes) were removed; see bench/selection/blind/.
  ['todo to_do reminder', 'reminder task todo'],
  // "What's in folder 12?" asks for what a container holds.
  ['whats_in what_is_in inside contents', 'item content'],
  ['msg text_message', 'message'],
  ['label', 'label tag'],
  ['tag', 'tag label'],
  ['note', 'comment note'],
  ['comment', 'comment reply'],
  ['logged_in who_am_i myself current_user', 'authenticated current user me'],
  ['mail', 'email'],
  ['teammate coworker colleague', 'collaborator member'],
  ['everyone everybody people person folks', 'user member'],
  ['public', 'public share'],
  ['belong_to member_of part_of', 'member membership'],
  ['whenever every_time', 'webhook event subscription'],
  ['callback', 'webhook'],
  ['cost', 'price cost'],
];

// Request openings that ask a question: the request wants to read, whatever verb follows.
const QUESTION_WORDS = new Set('what who which whose how when where is are does do did has have was were am'.split(' ').map(stemWord));

/**
 * Words that carry no meaning for choosing a tool. Left in, they make every description match. Pronouns
 * and politeness are here; so are words that only frame the request ("want", "need").
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be by can could would will shall should may might must do does did for from get has have ' +
    'how i in into is it its me my mine of on or our ours please that the their them then there these this those ' +
    'to us we what when where which who whom whose why with you your yours want need like let know just also again ' +
    'now right immediately some any all every so such than too very via up out over about here am was were been being ' +
    "i\u2019m im i'm ok okay thanks thank one"
  )
    .split(' ')
    .map(stemWord),
);

/** Opening words skipped when looking for the request's main verb ("can you please …", "I want to …"). */
export const FILLER_WORDS: ReadonlySet<string> = new Set(
  'please can could would will you i we want wanna need like let lets me us to go ahead and help kindly just also quickly d ll'.split(' ').map(stemWord),
);

function stems(words: string): string[] {
  return splitWords(words).map(stemWord);
}

function phraseKey(phrase: string): string {
  return stems(phrase.replace(/_/g, ' ')).join(' ');
}

const verbMeanings = new Map<string, VerbMeaning>();
for (const [words, classes, verbs, nouns] of VERB_ENTRIES) {
  for (const word of words.split(' ')) verbMeanings.set(phraseKey(word), { classes, verbs: stems(verbs), nouns: nouns ? stems(nouns) : [] });
}
const nounMeanings = new Map<string, string[]>();
for (const [words, nouns] of NOUN_ENTRIES) {
  for (const word of words.split(' ')) nounMeanings.set(phraseKey(word), stems(nouns));
}

/** The longest phrase of either table, in words: how far ahead {@link lookUpPhrase} needs to look. */
export const LONGEST_PHRASE: number = Math.max(...[...verbMeanings.keys(), ...nounMeanings.keys()].map((key) => key.split(' ').length));

/** The meaning of a stemmed word or phrase (space-separated stems) as a verb, if the lexicon has one. */
export function verbMeaning(stemmedPhrase: string): VerbMeaning | undefined {
  return verbMeanings.get(stemmedPhrase);
}

// Every stemmed word of a lexicon entry: such a word is vocabulary even when no tool uses it.
const lexiconWords = new Set([...verbMeanings.keys(), ...nounMeanings.keys()].flatMap((key) => key.split(' ')));

/** Whether a stemmed word occurs in a lexicon entry ("plate" of "on my plate"). */
export function isLexiconWord(stemmedWord: string): boolean {
  return lexiconWords.has(stemmedWord) || QUESTION_WORDS.has(stemmedWord);
}

/**
 * Particles of separable phrasal verbs: "bring file 6161 back" is "bring back", "take task 7 out of
 * project 9" is "take out". The parser joins the verb with a particle a few words later.
 */
export const PARTICLES: ReadonlySet<string> = new Set('back out off on up down away over'.split(' ').map(stemWord));

/**
 * Prepositions that open the context of a request: in "remove Dana from project 4545" the object acted
 * on is Dana, and project 4545 only says where.
 */
export const CONTEXT_PREPOSITIONS: ReadonlySet<string> = new Set('from in into inside within on onto to for of at under off across between'.split(' ').map(stemWord));

/** The API nouns (stemmed) a stemmed word or phrase stands for, if the lexicon has them. */
export function nounMeaning(stemmedPhrase: string): readonly string[] | undefined {
  return nounMeanings.get(stemmedPhrase);
}

/** True for the (stemmed) words that open a question ("who starred …" asks to read, not to star). */
export function isQuestionWord(stemmedWord: string): boolean {
  return QUESTION_WORDS.has(stemmedWord);
}

// Verbs that open operation summaries ("Create an issue", "Retrieves a customer"), by class. A tool's
// class comes from its summary verb when it has one of these, and from its HTTP method otherwise.
const SUMMARY_VERB_ENTRIES: Array<[ActionClass, string]> = [
  [
    'create',
    'create add post upload insert register establish initiate generate issue open make start submit send schedule invite fork copy duplicate instantiate request share import attach assign pin star follow subscribe apply reply comment react ping test render trigger dispatch rerun rerequest promote transfer refund pay capture confirm verify accept approve join merge convert exchange mark_as ask extract',
  ],
  ['read', 'get list retrieve fetch show view check download search find lookup look read return count preview analyze analyse detect calculate compute summarize estimate'],
  ['update', 'update edit modify change set rename replace mark move reset suspend unsuspend configure enable restore unarchive lock finalize reverse snooze complete dismiss'],
  ['delete', 'delete remove destroy cancel revoke unstar unfollow unsubscribe unpin uninstall unblock unlock decline reject close archive void detach unassign kick leave end expire purge disable'],
];
const summaryVerbClasses = new Map<string, ActionClass>();
for (const [actionClass, words] of SUMMARY_VERB_ENTRIES) for (const word of words.split(' ')) summaryVerbClasses.set(stemWord(word), actionClass);

/** The class of a verb (stemmed) that opens an operation summary, if it is one. */
export function summaryVerbClass(stemmedVerb: string): ActionClass | undefined {
  return summaryVerbClasses.get(stemmedVerb);
}
