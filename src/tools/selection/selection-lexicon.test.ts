import { describe, expect, it } from 'vitest';
import { isQuestionWord, nounMeaning, summaryVerbClass, verbMeaning } from './selection-lexicon.js';
import { splitWords, stemWord } from './split-words.js';

const key = (phrase: string): string => splitWords(phrase).map(stemWord).join(' ');

describe('the selection lexicon', () => {
  it.each([
    { given: 'open', classes: ['create'], verbs: ['creat'] },
    { given: 'file', classes: ['create'], verbs: ['creat'] },
    { given: 'approve', classes: ['create', 'update'], verbs: ['approv'] },
    { given: 'remind', classes: ['create'], verbs: ['creat'] },
    { given: 'show', classes: ['read'], verbs: ['get', 'list'] },
    { given: 'tell me', classes: ['read'], verbs: ['get'] },
    { given: 'tell', classes: ['create'], verbs: ['post'] },
    { given: 'close', classes: ['update', 'delete'], verbs: ['clos'] },
    { given: 'unfollow', classes: ['delete'], verbs: ['remov'] },
  ])('reads the verb "$given" as $classes', ({ given, classes, verbs }) => {
    const meaning = verbMeaning(key(given));
    expect(meaning?.classes).toEqual(classes);
    for (const verb of verbs) expect([...(meaning?.verbs ?? []), ...(meaning?.nouns ?? [])]).toContain(verb);
  });

  // General English only: the words of one API (bug → issue, chargeback → dispute) are not in the table.
  it.each([
    { given: 'note', want: 'comment' },
    { given: 'teammate', want: 'member' },
    { given: 'logged in', want: 'authenticat' },
    { given: 'mail', want: 'email' },
  ])('maps the noun "$given" to $want', ({ given, want }) => {
    expect(nounMeaning(key(given))).toContain(want);
  });

  it('has no meaning for words it does not know', () => {
    expect(verbMeaning(key('quantum'))).toBeUndefined();
    expect(nounMeaning(key('chromodynamics'))).toBeUndefined();
  });

  it.each([
    { given: 'Create', want: 'create' },
    { given: 'Lists', want: 'read' },
    { given: 'Retrieves', want: 'read' },
    { given: 'Detects', want: 'read' },
    { given: 'Restore', want: 'update' },
    { given: 'Unstar', want: 'delete' },
    { given: 'Star', want: 'create' },
  ])('classifies the summary verb $given as $want', ({ given, want }) => {
    expect(summaryVerbClass(stemWord(given.toLowerCase()))).toBe(want);
  });

  it('has no entry written for one API', () => {
    for (const word of ['bug', 'pr', 'snippet', 'chargeback', 'dnd', 'bin', 'on my plate', 'gpt', 'zip', 'directory', 'client', 'diff', 'can see']) expect(nounMeaning(key(word))).toBeUndefined();
    // Verbs whose only meaning was one API's resource (star a repository, fork, DM, text, fine-tune, draw an image).
    for (const word of ['star', 'unstar', 'fork', 'dm', 'text', 'call', 'fine tune', 'draw', 'commit', 'request changes']) expect(verbMeaning(key(word))).toBeUndefined();
  });

  it('knows question openings', () => {
    expect(['who', 'does', 'which', 'is'].every((word) => isQuestionWord(stemWord(word)))).toBe(true);
    expect(isQuestionWord(stemWord('create'))).toBe(false);
  });
});
