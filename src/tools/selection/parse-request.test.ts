import { describe, expect, it } from 'vitest';
import { parseRequest, tokenizeRequest } from './parse-request.js';

describe('tokenizeRequest (argument values)', () => {
  it.each([
    { given: 'open a bug in octocat/hello-world', want: ['open', 'a', 'bug', 'in', 'repository'] },
    { given: 'add "buy milk" to my list', want: ['add', 'text', 'to', 'my', 'list'] },
    { given: 'invite dev@example.com', want: ['invite', 'email'] },
    { given: 'notify https://example.com/hooks', want: ['notify', 'url'] },
    { given: 'refund $20 of ch_3Kq2', want: ['refund', 'amount', 'of', 'identifier'] },
    { given: 'approve pull request 31', want: ['approve', 'pull', 'request', 'number'] },
    { given: 'the user octocat', want: ['the', 'user', 'name'] },
    { given: 'post in #releases at 6pm', want: ['post', 'in', 'channel', 'at', 'time'] },
    { given: 'read src/index.js', want: ['read', 'path'] },
    { given: 'kick U061F7AUR', want: ['kick', 'identifier'] },
    { given: "what's new", want: ['whats', 'new'] },
    { given: 're-run it', want: ['rerun', 'it'] },
  ])('$given', ({ given, want }) => {
    expect(tokenizeRequest(given).map((token) => token.word ?? token.value)).toEqual(want);
  });
});

describe('parseRequest', () => {
  it('takes the action from the main verb, skipping politeness', () => {
    expect(parseRequest('could you please open a new bug report').classes).toEqual(['create']);
    expect(parseRequest('who starred my repository?').classes).toEqual(['read']);
    expect(parseRequest('at 9am tomorrow, send good morning').classes).toEqual(['create']);
    expect(parseRequest('quantum chromodynamics').classes).toEqual([]);
  });

  it('reads an opening verb the lexicon does not know through the senses WordNet relates to it', () => {
    // "throw": move, drop, remove → delete wins; "swap": switch, change → update.
    expect(parseRequest('throw away task 3838').classes).toEqual(['delete']);
    expect(parseRequest('swap my avatar for this picture').classes).toEqual(['update']);
    // "buy": get (read) and pay (create) tie, so no class is guessed.
    expect(parseRequest('buy the phone number +15005550006').classes).toEqual([]);
  });

  it('keeps argument values out of the terms and turns them into parameter hints', () => {
    const parsed = parseRequest('open a new issue in the octocat/hello-world repository');
    expect([...parsed.terms.keys()]).not.toContain('octocat');
    expect(parsed.terms.get('issu')).toBeGreaterThan(0);
    expect(parsed.valueKinds.has('repository')).toBe(true);
    expect([...parseRequest('approve review 31').parameterNouns]).toEqual(['review']);
    expect([...parseRequest('void invoice in_1MtHbELkdIwHu7ix').parameterNouns]).toContain('invoic');
    // An identifier's prefix is a hint about its kind wherever the catalog uses it as a word.
    expect(parseRequest('refund invoice_8812').terms.get('invoic')).toBeGreaterThan(0);
    // A quoted title names a new object, not an existing one.
    expect(parseRequest("create a task 'write the post'").parameterNouns.size).toBe(0);
  });

  it('weighs lexicon expansions below the words of the request, and phrase words below the phrase', () => {
    const parsed = parseRequest('who am I logged in as');
    expect(parsed.terms.get('authenticat')).toBeGreaterThan(parsed.terms.get('log')!);
  });

  // A catalog that knows projects, tasks, tags, users, goals, service accounts and tokens.
  const known = ['project', 'task', 'tag', 'user', 'goal', 'serviceaccount', 'token', 'servic', 'account', 'fil', 'trash', 'profil'];
  const vocabulary = {
    has: (term: string) => known.includes(term),
    knows: (term: string) => known.some((word) => word === term || (term.length >= 4 && (word.startsWith(term) || term.startsWith(word)))),
  };

  it('counts a verb of change in full where the catalog uses its word (an action path segment), a read verb not', () => {
    const player = { has: (term: string) => ['paus', 'show', 'player', 'music', 'volum'].includes(term), knows: (term: string) => ['paus', 'show', 'player', 'music', 'volum'].includes(term) };
    // `/me/player/pause`: "pause" names the action; without the catalog's word it stays a verb only.
    expect(parseRequest('pause the music', player).terms.get('paus')).toBe(1);
    expect(parseRequest('pause the music').terms.get('paus')).toBeLessThan(1);
    // "show" frames a question; a catalog with shows does not make it the object.
    expect(parseRequest('show my playlists', player).terms.get('show')).toBeLessThan(1);
  });

  it('turns words the catalog does not know into names, capitalised ones into people', () => {
    const parsed = parseRequest('remove Dana from project 4545', vocabulary);
    expect(parsed.terms.has('dana')).toBe(false);
    expect(parsed.valueKinds.has('person')).toBe(true);
    expect(parsed.terms.get('user')).toBeGreaterThan(0);
    // Without a vocabulary every word is a keyword.
    expect(parseRequest('remove Dana from project 4545').terms.has('dana')).toBe(true);
  });

  it('takes the object from after the verb and leaves what follows a preposition as context', () => {
    expect([...parseRequest('remove the urgent tag from task 8080', vocabulary).objectNouns]).toContain('tag');
    expect([...parseRequest('remove the urgent tag from task 8080', vocabulary).objectNouns]).not.toContain('task');
    // A property hands the object on: the user is what is read.
    expect([...parseRequest('get the profile of user octocat', vocabulary).objectNouns]).toContain('user');
  });

  it('joins catalog words written apart, and separable phrasal verbs', () => {
    expect(parseRequest('get a token for service account ci-bot', vocabulary).terms.get('serviceaccount')).toBe(1);
    expect(parseRequest('bring file 6161 back from the trash', vocabulary).classes).toContain('update');
    expect(parseRequest('bring file 6161 to the meeting', vocabulary).classes).not.toContain('update');
  });

  it('reads an update verb with an indefinite object as creating one', () => {
    expect(parseRequest("set a goal 'reach 1000 customers'", vocabulary).classes).toEqual(['create']);
    expect(parseRequest('set the goal 123 to done', vocabulary).classes).toEqual(['update']);
  });

  it('notes plural nouns', () => {
    expect(parseRequest('list my workspaces').plurals.has('workspac')).toBe(true);
  });
});
