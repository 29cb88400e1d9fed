/**
 * `selectToolsWithEmbeddings` never lowers recall below the lexical ranking it fuses with: over every
 * labelled request of the selection evaluation (tuning and held-out splits; manifests generated here
 * from ../shared/corpus/big), recall@1 and recall@5 of the fusion with the FAKE hashed-trigram
 * embedder (spelling only, no meaning: the worst case of a second ranking that knows less than the
 * first) are at least those of `selectTools`, per API.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import type { Manifest } from '../../src/manifest/manifest-v0.js';
import { generateManifest } from '../../src/openapi/index.js';
import { createCatalog, selectTools, selectToolsWithEmbeddings, type CatalogTool, type SelectedTool } from '../../src/tools/index.js';
import { createHashedTrigramEmbedder } from '../../src/tools/selection/hashed-trigram-embedder.js';

// The evaluation's own lists (plain JavaScript under bench/, typed here).
const { APIS } = (await import(new URL('../../bench/selection/evaluate-selection.js', import.meta.url).href)) as { APIS: Array<{ key: string; file: string }> };
const { loadRequests } = (await import(new URL('../../bench/selection/selection-requests.js', import.meta.url).href)) as {
  loadRequests: (split: string) => Map<string, Array<{ request: string; operations: string[] }>>;
};

const corpus = resolve(import.meta.dirname, '../../../shared/corpus/big');
const available = existsSync(corpus);
// A directory where generated manifests are kept between development runs (the generation is most of the cost).
const cache = process.env['AICAP_SELECTION_MANIFEST_CACHE'];

async function manifestOf(api: { key: string; file: string }): Promise<Manifest> {
  const cached = cache ? join(cache, `${api.key}.json`) : undefined;
  if (cached && existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as Manifest;
  const { manifest } = await generateManifest({ input: join(corpus, api.file), strict: false });
  if (cached) writeFileSync(cached, JSON.stringify(manifest));
  return manifest as Manifest;
}

async function catalogOf(manifest: Manifest): Promise<CatalogTool[]> {
  const client = createClient();
  try {
    return createCatalog([await client.load(manifest, { maxSizeInBytes: 64 * 1024 * 1024 })]).tools;
  } finally {
    await client.close();
  }
}

function recall(ranked: SelectedTool[][], gold: string[][], depth: number): number {
  return ranked.filter((tools, index) => tools.slice(0, depth).some((entry) => gold[index]!.includes(`${entry.tool.method} ${entry.tool.path}`))).length / ranked.length;
}

const requestsByApi = new Map<string, Array<{ request: string; operations: string[] }>>();
for (const split of ['tuning', 'held-out']) for (const [api, requests] of loadRequests(split)) requestsByApi.set(api, [...(requestsByApi.get(api) ?? []), ...requests]);

describe.skipIf(!available)('selectToolsWithEmbeddings keeps the recall of the lexical ranking (FAKE embedder)', () => {
  if (!available) it.skip(`needs the corpus at ${corpus} (../shared next to the repository)`, () => undefined);
  const embed = createHashedTrigramEmbedder();
  it.each(APIS.map((api) => [api.key, api] as const))(
    '%s',
    async (_key, api) => {
      const tools = await catalogOf(await manifestOf(api));
      const keys = new Set(tools.map((tool) => `${tool.method} ${tool.path}`));
      const requests = (requestsByApi.get(api.key) ?? []).filter((entry) => entry.operations.some((operation) => keys.has(operation)));
      expect(requests.length).toBeGreaterThan(10);
      const gold = requests.map((entry) => entry.operations);
      const lexical = requests.map((entry) => selectTools(tools, entry.request, { limit: 5 }));
      const fused: SelectedTool[][] = [];
      for (const entry of requests) fused.push(await selectToolsWithEmbeddings(tools, entry.request, { embed, limit: 5 }));
      const figures = { lexical: [recall(lexical, gold, 1), recall(lexical, gold, 5)], fused: [recall(fused, gold, 1), recall(fused, gold, 5)] };
      console.log(
        `${api.key} (${requests.length} requests): lexical r@1 ${figures.lexical[0]!.toFixed(3)} r@5 ${figures.lexical[1]!.toFixed(3)}; fused r@1 ${figures.fused[0]!.toFixed(3)} r@5 ${figures.fused[1]!.toFixed(3)}`,
      );
      expect(figures.fused[0]).toBeGreaterThanOrEqual(figures.lexical[0]!);
      expect(figures.fused[1]).toBeGreaterThanOrEqual(figures.lexical[1]!);
    },
    240_000,
  );
});
