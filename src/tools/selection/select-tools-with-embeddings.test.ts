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

  it('refuses a request that is not a string, tools that are not an array and missing options with typed errors, before calling the embedder', async () => {
    const texts: string[][] = [];
    const recording: EmbedTexts = async (batch) => {
      texts.push(batch);
      return fakeEmbed(batch);
    };
    await expect(selectToolsWithEmbeddings(tools, undefined as never, { embed: recording })).rejects.toMatchObject({
      name: 'AicapError',
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('request as a string'),
    });
    await expect(selectToolsWithEmbeddings({ tools } as never, 'x', { embed: recording })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('got a catalog (pass its .tools)'),
    });
    await expect(selectToolsWithEmbeddings(tools, 'x', undefined as never)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringContaining('`embed` option of selectToolsWithEmbeddings'),
    });
    expect(texts).toEqual([]);
  });

  it('retries an embedder that failed once, instead of keeping the failure for the tools array', async () => {
    let failures = 1;
    const flaky: EmbedTexts = async (batch) => {
      if (failures-- > 0) throw new Error('model server unavailable');
      return fakeEmbed(batch);
    };
    await expect(selectToolsWithEmbeddings(tools, 'archived invoices', { embed: flaky })).rejects.toThrow('model server unavailable');
    await expect(selectToolsWithEmbeddings(tools, 'archived invoices', { embed: flaky })).resolves.toHaveLength(5);
  });

  it('refuses vectors of one length for the request and another for the tools', async () => {
    const mixed: EmbedTexts = async (batch) => batch.map(() => (batch.length === 1 ? [1, 0, 0] : [1, 0]));
    await expect(selectToolsWithEmbeddings(tools, 'x', { embed: mixed })).rejects.toMatchObject({ code: 'INVALID_OPTION', message: expect.stringContaining('use one model for both') });
  });

  it('refuses a vector holding NaN', async () => {
    const poisoned: EmbedTexts = async (batch) => batch.map(() => [Number.NaN, 1]);
    await expect(selectToolsWithEmbeddings(tools, 'x', { embed: poisoned })).rejects.toMatchObject({ code: 'INVALID_OPTION', message: expect.stringContaining('finite numbers') });
  });

  it('the fake embedder is deterministic and normalised', async () => {
    const [first] = await fakeEmbed(['hello world']);
    const [second] = await fakeEmbed(['hello world']);
    expect(first).toEqual(second);
    expect(Math.hypot(...first!)).toBeCloseTo(1, 10);
  });
});
