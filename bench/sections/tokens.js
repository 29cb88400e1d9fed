// Section 6: what the tool list costs in a prompt. Tokens (gpt-tokenizer, `o200k_base`, through
// `estimateTokens` of `aicap/tools`) of the full OpenAI Chat Completions tool export vs the export
// of `selectTools`' top 5 for a few natural-language requests. For a large real description (the
// GitHub REST API from the shared corpus, converted with `aicap/openapi`) and for the Payments
// manifest. Both are registered through `client.load`, so the catalog is the one a client builds
// (trust scan, deprecated tools hidden).
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createClient } from 'aicap/client';
import { generateManifest } from 'aicap/openapi';
import { estimateTokens, exportTools, selectTools } from 'aicap/tools';
import { loadPaymentsManifest } from '../../examples/payments/dist/start-payments-server.js';
import { round } from '../lib/measure.js';

const CORPUS = new URL('../../../shared/corpus/', import.meta.url);
const LARGE = {
  file: 'big/github-api.github.com-2020-07.json',
  label: 'GitHub REST API (2020-07, 623 operations)',
  // The model never sees return schemas (they are not part of a tool export), and whole return
  // schemas would push this manifest past the client's 1 MiB manifest cap: keep only their summary.
  maxReturnSchemaNodes: 1,
  requests: ['List the open pull requests of a repository', 'Create an issue in my repository', 'Star a repository for the authenticated user'],
};
const PAYMENTS_REQUESTS = ['Show my last transactions', 'Are there suspicious payments on account 12345?', 'Close the account of this customer'];
const TOP = 5;

export async function benchmarkTokens() {
  const rows = [];
  rows.push(await measure('Payments example manifest', loadPaymentsManifest(), PAYMENTS_REQUESTS));
  const largePath = new URL(LARGE.file, CORPUS);
  if (!existsSync(largePath)) {
    return { rows, pending: `${LARGE.label}: ${largePath.pathname} is absent (the shared corpus is not on this machine).` };
  }
  const startedAt = performance.now();
  const generated = await generateManifest({ input: largePath.pathname, strict: false, maxReturnSchemaNodes: LARGE.maxReturnSchemaNodes });
  const generationInMs = performance.now() - startedAt;
  rows.push({ ...(await measure(LARGE.label, generated.manifest, LARGE.requests)), generationInMs: round(generationInMs, 0), operations: generated.statistics.operations });
  return { rows };
}

async function measure(label, manifest, requests) {
  const client = createClient();
  try {
    await client.load(manifest);
    const catalog = client.catalog();
    const full = await estimateTokens(exportTools(catalog.tools, 'openai').tools);
    if (full.approximate) throw new Error('gpt-tokenizer is not installed: the token counts would be estimates.');
    const selections = [];
    for (const request of requests) {
      const selected = selectTools(catalog.tools, request, { limit: TOP }).map((entry) => entry.tool);
      const tokens = (await estimateTokens(exportTools(selected, 'openai').tools)).tokens;
      selections.push({ request, tools: selected.map((tool) => tool.name), tokens, ratio: round(full.tokens / tokens, 1) });
    }
    return { label, manifestTools: manifest.tools.length, catalogTools: catalog.tools.length, withheldTools: catalog.withheld.length, fullExportTokens: full.tokens, selections };
  } finally {
    await client.close();
  }
}
