import { describe, expect, it } from 'vitest';
import { readAiCatalog } from './read-ai-catalog.js';

describe('readAiCatalog', () => {
  it('reads the draft fields, the older mediaType and name, inline data and relative URLs', () => {
    const catalog = readAiCatalog(
      {
        specVersion: '1.0',
        entries: [
          { identifier: 'urn:air:example.com:mcp:a', type: 'application/mcp-server-card+json', url: '/mcp/server-card', displayName: 'A' },
          { identifier: 'urn:air:example.com:ai-capabilities', mediaType: 'application/ai-capabilities+json', url: 'https://example.com/.well-known/ai-capabilities', name: 'Old' },
          { identifier: 'urn:air:example.com:nested', type: 'application/ai-catalog+json', data: { specVersion: '1.0', entries: [] } },
        ],
      },
      'https://example.com/.well-known/ai-catalog.json',
    );
    expect(catalog.problems).toEqual([]);
    expect(catalog.entries.map((entry) => [entry.type, entry.url, entry.displayName])).toEqual([
      ['application/mcp-server-card+json', 'https://example.com/mcp/server-card', 'A'],
      ['application/ai-capabilities+json', 'https://example.com/.well-known/ai-capabilities', 'Old'],
      ['application/ai-catalog+json', undefined, undefined],
    ]);
    expect(catalog.entries[2]!.data).toEqual({ specVersion: '1.0', entries: [] });
  });

  it('skips entries with both or neither of url and data, or no type, saying where', () => {
    const catalog = readAiCatalog({ entries: [{ type: 'x', url: 'https://a.example', data: {} }, { type: 'x' }, { url: 'https://a.example' }, 'nope'] }, 'https://example.com/c.json');
    expect(catalog.entries).toEqual([]);
    expect(catalog.problems).toEqual([
      '/entries/0: needs exactly one of `url` and `data`',
      '/entries/1: needs exactly one of `url` and `data`',
      '/entries/2: no `type` (or `mediaType`)',
      '/entries/3: not an object',
    ]);
  });

  it('bounds the entries read', () => {
    const catalog = readAiCatalog({ entries: Array.from({ length: 5 }, (_, index) => ({ type: 'x', url: `/e${index}` })) }, 'https://example.com/c.json', 2);
    expect(catalog.entries).toHaveLength(2);
    expect(catalog.problems).toEqual(['entries after the first 2 were not read']);
  });
});
