import { describe, expect, it } from 'vitest';
import { splitWords, stemWord, stripMarkup } from './split-words.js';

describe('splitWords', () => {
  it.each([
    { given: 'chat.postMessage', want: ['chat', 'post', 'message'] },
    { given: 'repos_create-fork', want: ['repos', 'create', 'fork'] },
    { given: 'HTTPServer addFollowers', want: ['http', 'server', 'add', 'followers'] },
    { given: 'add_shared_link', want: ['add', 'shared', 'link'] },
    { given: 'Créer une tâche!', want: ['créer', 'une', 'tâche'] },
    { given: '', want: [] },
  ])('splits $given', ({ given, want }) => {
    expect(splitWords(given)).toEqual(want);
  });

  it('splits ASCII text in one pass exactly as the regular expressions split any text', () => {
    // A non-ASCII word after a space sends the same text through the regular expressions: it adds
    // only itself. Texts of the characters where splitting rules differ, from a fixed seed.
    const alphabet = 'aAbZz09_-. /{}\tHTTPServerv1Beta';
    let seed = 7;
    const next = (below: number): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % below;
    for (let round = 0; round < 3000; round++) {
      const text = Array.from({ length: next(24) }, () => alphabet[next(alphabet.length)]).join('');
      expect(splitWords(text), JSON.stringify(text)).toEqual(splitWords(`${text} é`).slice(0, -1));
    }
    for (const text of ['ABCdEFg', 'aBCd', 'ABC1d', 'a1B2C', 'readCoreV1NamespacedPodStatus', 'IOStream', 'x-GitHub-Api-Version'])
      expect(splitWords(text), text).toEqual(splitWords(`${text} é`).slice(0, -1));
  });
});

describe('stemWord', () => {
  it.each([
    { given: ['starred', 'starring', 'stars', 'star'], want: 'star' },
    { given: ['issues', 'issue'], want: 'issu' },
    { given: ['replies', 'reply'], want: 'reply' },
    { given: ['branches', 'branch'], want: 'branch' },
    { given: ['repositories', 'repository'], want: 'repository' },
    { given: ['created', 'creates', 'create', 'creating'], want: 'creat' },
    { given: ['shared', 'share'], want: 'shar' },
  ])('stems $given to $want', ({ given, want }) => {
    for (const word of given) expect(stemWord(word)).toBe(want);
  });

  it.each(['status', 'address', 'analysis', 'api', 'id', '2024'])('leaves %s alone where a suffix is part of the word', (word) => {
    expect(stemWord(word)).toBe(word === 'address' ? 'address' : word);
  });
});

describe('stripMarkup', () => {
  it('removes tags and entities', () => {
    expect(stripMarkup('<p>Creates a <code>Customer</code>&nbsp;object.</p>').replace(/\s+/g, ' ').trim()).toBe('Creates a Customer object.');
  });
});
