import { describe, expect, it } from 'vitest';
import type { DiscoveredService } from '../../client/shapes/client-types.js';
import type { Manifest } from '../../manifest/manifest-v0.js';
import { createCatalog, type CatalogTool } from '../create-catalog.js';
import { createHashedTrigramEmbedder } from './hashed-trigram-embedder.js';
import { selectToolsWithEmbeddings, type EmbedTexts } from './select-tools-with-embeddings.js';

function catalogOf(tools: Manifest['tools']): CatalogTool[] {
  const manifest: Manifest = { schema_version: '0.1.0', service: { name: 'Todo', base_url: 'https://todo.example.com' }, tools };
  const service: DiscoveredService = {
    namespace: 'todo',
    origin: 'https://todo.example.com',
    manifestUrl: 'https://todo.example.com/m',
    manifest,
    digest: 'sha256-x',
    grantedScopes: undefined,
    findings: [],
    quarantinedToolIds: [],
    disabledToolIds: [],
  };
  return createCatalog([service]).tools;
}

const tools = catalogOf(
  Array.from({ length: 30 }, (_, index) => ({ id: `tool_${index}`, path: `/things/${index}`, method: 'GET' as const, description: `Reads thing number ${index}` })).concat([
    { id: 'archive_invoices', path: '/invoices/archive', method: 'GET' as const, description: 'Returns archived invoices' },
  ]),
);

// A FAKE embedder: hashed character trigrams, deterministic, no semantics (see hashed-trigram-embedder.ts).
const fakeEmbed = createHashedTrigramEmbedder();

describe('selectToolsWithEmbeddings (with a deterministic fake embedder)', () => {
  it('finds a tool no word of the request matches, through the vectors, and always fills the limit', async () => {
    // "invoicez" shares trigrams with "invoices" but is no word of any tool, so the lexical ranking is empty.
    const ranked = await selectToolsWithEmbeddings(tools, 'archivd invoicez', { embed: fakeEmbed, limit: 3 });
    expect(ranked).toHaveLength(3);
    expect(ranked[0]!.tool.id).toBe('archive_invoices');
  });

  it('with semanticWeight 0 puts the lexical matches first, then the rest', async () => {
    const ranked = await selectToolsWithEmbeddings(tools, 'show the archived invoices', { embed: fakeEmbed, semanticWeight: 0, limit: 2 });
    expect(ranked.map((selected) => selected.tool.id)[0]).toBe('archive_invoices');
    expect(ranked[1]!.score).toBe(0);
  });

  it('embeds the tools once per tools array and embed function', async () => {
    const calls: number[] = [];
    const counting: EmbedTexts = async (texts) => {
      calls.push(texts.length);
      return fakeEmbed(texts);
    };
    await selectToolsWithEmbeddings(tools, 'first', { embed: counting });
    await selectToolsWithEmbeddings(tools, 'second', { embed: counting });
    expect(calls).toEqual([tools.length, 1, 1]);
  });

  it('refuses an embedder that returns the wrong number or shape of vectors, naming the option', async () => {
    const short: EmbedTexts = async (texts) => texts.slice(1).map(() => [1, 0]);
    await expect(selectToolsWithEmbeddings(catalogOf([{ id: 'a', path: '/a', method: 'GET', description: 'A' }]), 'x', { embed: short })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringContaining('`embed`'),
    });
    const ragged: EmbedTexts = async (texts) => texts.map((_, index) => (index === 0 ? [1, 0] : [1]));
    await expect(selectToolsWithEmbeddings(tools, 'x', { embed: ragged })).rejects.toMatchObject({ code: 'INVALID_OPTION', message: expect.stringContaining('index 1') });
  });

  it('refuses bad options with INVALID_OPTION', async () => {
    await expect(selectToolsWithEmbeddings(tools, 'x', { embed: fakeEmbed, semanticWeight: 2 })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringContaining('`semanticWeight`'),
    });
    await expect(selectToolsWithEmbeddings(tools, 'x', { embed: undefined as unknown as EmbedTexts })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  });

  it('the fake embedder is deterministic and normalised', async () => {
    const [first] = await fakeEmbed(['hello world']);
    const [second] = await fakeEmbed(['hello world']);
    expect(first).toEqual(second);
    expect(Math.hypot(...first!)).toBeCloseTo(1, 10);
  });
});
