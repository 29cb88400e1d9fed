// Building blocks of the selection evaluation: catalogs generated from the corpus with aicap/openapi,
// ranks of the labelled operations, and the metrics over them.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url);
export const CORPUS = new URL('../shared/corpus/big/', ROOT);

/** The APIs of the evaluation: key (request file name), name, OpenAPI description in the corpus. */
export const APIS = [
  { key: 'github', name: 'GitHub REST', file: 'github-api.github.com-2020-07.json' },
  { key: 'stripe', name: 'Stripe', file: 'stripe-spec3-2022-04.json' },
  { key: 'slack', name: 'Slack Web', file: 'slack-web-openapi-v2.json' },
  { key: 'box', name: 'Box', file: 'box-openapi.json' },
  { key: 'asana', name: 'Asana', file: 'asana-oas.yaml' },
  // Tuning requests only (written in later batches); the held-out split covers the five above.
  { key: 'twilio', name: 'Twilio', file: 'twilio-api-v2010.json' },
  { key: 'openai', name: 'OpenAI', file: 'openai-openapi.yaml' },
  { key: 'kubernetes', name: 'Kubernetes', file: 'kubernetes-swagger.json' },
];
// Deepest rank looked at: MRR counts 1/rank up to here, 0 beyond.
export const DEPTH = 50;

/**
 * Imports an entry of the built package (dist/) or, with SELECTION_DIST set, of another build. Under the
 * test runner, of the sources: a test checks the code it runs beside, not the last build.
 */
export async function importAicap(entry, file = '/index.js') {
  if (process.env.VITEST && !process.env.SELECTION_DIST) return import(new URL(`src/${entry}${file.replace(/\.js$/, '.ts')}`, ROOT).pathname);
  const base = process.env.SELECTION_DIST ? new URL(`file://${process.env.SELECTION_DIST.replace(/\/?$/, '/')}`) : new URL('dist/', ROOT);
  return import(new URL(`${entry}${file}`, base).href);
}

export function corpusAvailable() {
  return existsSync(CORPUS);
}

/**
 * The catalog a client builds for a manifest: loaded (validated, trust-scanned, quarantine applied),
 * then `createCatalog`. `transform` edits the manifest first (an overlay, or removing intent).
 */
export async function catalogOf(manifest, { transform } = {}) {
  const { createClient } = await importAicap('client');
  const { createCatalog } = await importAicap('tools');
  const edited = transform ? transform(structuredClone(manifest)) : manifest;
  const client = createClient();
  try {
    const service = await client.load(edited, { maxSizeInBytes: 64 * 1024 * 1024 });
    return createCatalog([service]).tools;
  } finally {
    await client.close();
  }
}

/** Generates the manifest of one corpus API with aicap/openapi (non-strict, as `aicap generate` does). */
export async function generateApiManifest(api) {
  // SELECTION_MANIFEST_CACHE (a directory) keeps generated manifests between development runs.
  const cached = process.env.SELECTION_MANIFEST_CACHE ? `${process.env.SELECTION_MANIFEST_CACHE}/${api.key}.json` : undefined;
  if (cached && existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8'));
  const { generateManifest } = await importAicap('openapi');
  const { manifest } = await generateManifest({ input: new URL(api.file, CORPUS).pathname, strict: false });
  if (cached) writeFileSync(cached, JSON.stringify(manifest));
  return manifest;
}

export function operationKey(tool) {
  return `${tool.method} ${tool.path}`;
}

/**
 * The requests the catalog can serve. A label that is not an operation of the manifest is a bug in the
 * request file (thrown); a request all of whose operations the catalog withholds (the trust scan
 * quarantines a few generated GitHub tools) cannot be served by any selector and is set aside, counted.
 */
export function servableRequests(manifest, tools, requests, where) {
  const declared = new Set(manifest.tools.map((tool) => `${tool.method} ${tool.path}`));
  const keys = new Set(tools.map(operationKey));
  const servable = [];
  for (const entry of requests) {
    for (const operation of entry.operations) if (!declared.has(operation)) throw new Error(`${where}: "${operation}" (for ${JSON.stringify(entry.request)}) is not an operation of the manifest`);
    if (entry.operations.some((operation) => keys.has(operation))) servable.push(entry);
  }
  return { servable, withheld: requests.length - servable.length };
}

/**
 * Rank (1-based) of the first labelled operation in each ranking, or Infinity past DEPTH.
 * @param {(request: string) => Promise<Array<{ tool: object }>> | Array<{ tool: object }>} rank
 */
export async function ranksOf(requests, rank) {
  const ranks = [];
  for (const { request, operations } of requests) {
    const ranked = await rank(request);
    const position = ranked.findIndex((entry) => operations.includes(operationKey(entry.tool)));
    ranks.push(position === -1 ? Infinity : position + 1);
  }
  return ranks;
}

/** recall@1/@5/@10 and MRR of a list of ranks. */
export function metricsOf(ranks) {
  const count = ranks.length;
  const within = (k) => ranks.filter((rank) => rank <= k).length / count;
  return { count, recallAt1: within(1), recallAt5: within(5), recallAt10: within(10), mrr: ranks.reduce((sum, rank) => sum + (rank === Infinity ? 0 : 1 / rank), 0) / count };
}

export function readJson(url) {
  return JSON.parse(readFileSync(url, 'utf8'));
}
