// `npm run eval:selection`: how well selectTools finds the operations that serve labelled requests
// over real APIs of the corpus, the tokens it saves, the effect of structured intent, and its speed.
//
//   node bench/selection/run-evaluation.js [--split tuning|held-out|all] [--batch <name>] [--embedder fake|<module>] [--write]
//
// `--batch` keeps only one batch of tuning requests (`first`, `fresh-1`, …; see selection-requests.js):
// a batch written after a change to the selector is that change's unseen check.
// `--split tuning` (the default) prints every miss, for developing the selector. The held-out split
// is only ever reported in aggregate. `--write` writes bench/selection-results.md (the npm script
// passes `--split all --embedder fake --write`).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { benchmarkSelection } from '../selection-bench.js';
import { APIS, catalogOf, corpusAvailable, generateApiManifest, importAicap, metricsOf, operationKey, ranksOf, servableRequests } from './evaluate-selection.js';
import { measureIntent } from './measure-intent.js';
import { renderSelectionResults } from './render-selection-results.js';
import { heldOutDigest, loadRequests } from './selection-requests.js';

const RESULTS = new URL('../selection-results.md', import.meta.url);
const log = (message) => process.stderr.write(`${message}\n`);

async function main() {
  const { values } = parseArgs({
    options: {
      split: { type: 'string', default: 'tuning' },
      batch: { type: 'string' },
      embedder: { type: 'string' },
      write: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
    },
  });
  if (!['tuning', 'held-out', 'all'].includes(values.split)) throw new Error(`--split must be tuning, held-out or all, got ${JSON.stringify(values.split)}`);
  if (!corpusAvailable()) {
    log('Selection evaluation skipped: the corpus (../shared/corpus/big/) is not on this machine.');
    return;
  }
  const splits = values.split === 'all' ? ['tuning', 'held-out'] : [values.split];
  const embedder = values.embedder === undefined ? undefined : await loadEmbedder(values.embedder);
  const { selectTools, selectToolsWithEmbeddings, exportTools, estimateTokens } = await importAicap('tools');
  const requestsBySplit = Object.fromEntries(splits.map((split) => [split, loadRequests(split, { batch: split === 'tuning' ? values.batch : undefined })]));
  const apis = [];
  const manifests = new Map();
  for (const api of APIS) {
    log(`${api.name}: generating the manifest…`);
    const manifest = await generateApiManifest(api);
    manifests.set(api.key, manifest);
    const tools = await catalogOf(manifest);
    const row = { name: api.name, key: api.key, tools: tools.length, splits: {} };
    row.wholeListTokens = (await estimateTokens(exportTools(tools, 'openai').tools)).tokens;
    for (const split of splits) {
      const { servable: requests, withheld } = servableRequests(manifest, tools, requestsBySplit[split].get(api.key) ?? [], `${split}/${api.key}.jsonl`);
      // The held-out split has no requests for the APIs added with later tuning batches.
      if (requests.length === 0) continue;
      const lexical = await ranksOf(requests, (request) => selectTools(tools, request, { limit: 50 }));
      const entry = { lexical: metricsOf(lexical), withheld };
      if (embedder) entry.fused = metricsOf(await ranksOf(requests, (request) => selectToolsWithEmbeddings(tools, request, { limit: 50, embed: embedder.embed })));
      let topTokens = 0;
      for (const { request } of requests)
        topTokens += (
          await estimateTokens(
            exportTools(
              selectTools(tools, request, { limit: 5 }).map((selected) => selected.tool),
              'openai',
            ).tools,
          )
        ).tokens;
      entry.topFiveTokens = topTokens / requests.length;
      if (split === 'tuning') entry.batches = batchMetrics(requests, lexical);
      row.splits[split] = entry;
      if (split === 'tuning' && !values.quiet) printMisses(api, tools, requests, lexical, selectTools);
    }
    apis.push(row);
  }
  const overall = Object.fromEntries(splits.map((split) => [split, combine(apis.map((row) => row.splits[split]))]));
  const tuningBatches = splits.includes('tuning') ? combineBatches(apis.map((row) => row.splits.tuning?.batches)) : undefined;
  for (const split of splits) log(`${split}: ${format(overall[split].lexical)}${overall[split].fused ? `  | fused: ${format(overall[split].fused)}` : ''}`);
  for (const [batch, metrics] of Object.entries(tuningBatches ?? {})) log(`  tuning batch ${batch}: ${format(metrics)}`);
  for (const row of apis) for (const split of splits) if (row.splits[split]) log(`  ${row.name} ${split}: ${format(row.splits[split].lexical)}`);
  if (!values.write) return;
  log('intent study…');
  const intent = await measureIntent({ githubManifest: manifests.get('github'), requests: splits.flatMap((split) => requestsBySplit[split].get('github') ?? []) });
  log('speed…');
  const speed = await benchmarkSelection();
  log(`speed: index build ${speed.indexBuildMedianInMs.toFixed(1)} ms, query ${speed.queryMeanInMs.toFixed(3)} ms on ${speed.tools} tools`);
  writeFileSync(RESULTS, renderSelectionResults({ apis, overall, tuningBatches, splits, embedder: embedder?.label, intent, speed, heldOutDigest: heldOutDigest() }));
  log(`wrote ${RESULTS.pathname}`);
}

/** Lexical metrics of each batch of tuning requests of one API. */
function batchMetrics(requests, ranks) {
  const byBatch = new Map();
  for (const [index, { batch }] of requests.entries()) byBatch.set(batch, [...(byBatch.get(batch) ?? []), ranks[index]]);
  return Object.fromEntries([...byBatch].map(([batch, batchRanks]) => [batch, { lexical: metricsOf(batchRanks) }]));
}

/** Overall lexical metrics of each batch of tuning requests, over the APIs that have it. */
function combineBatches(perApi) {
  const names = [...new Set(perApi.flatMap((batches) => Object.keys(batches ?? {})))].sort();
  return Object.fromEntries(names.map((name) => [name, combine(perApi.map((batches) => batches?.[name])).lexical]));
}

/** Weighted (by request count) average of per-API metrics. */
function combine(entries) {
  const result = {};
  for (const kind of ['lexical', 'fused']) {
    const present = entries.filter((entry) => entry?.[kind]);
    if (present.length === 0) continue;
    const count = present.reduce((sum, entry) => sum + entry[kind].count, 0);
    const mean = (field) => present.reduce((sum, entry) => sum + entry[kind][field] * entry[kind].count, 0) / count;
    result[kind] = { count, recallAt1: mean('recallAt1'), recallAt5: mean('recallAt5'), recallAt10: mean('recallAt10'), mrr: mean('mrr') };
  }
  return result;
}

function format(metrics) {
  return `n=${metrics.count} r@1 ${metrics.recallAt1.toFixed(3)} r@5 ${metrics.recallAt5.toFixed(3)} r@10 ${metrics.recallAt10.toFixed(3)} MRR ${metrics.mrr.toFixed(3)}`;
}

function printMisses(api, tools, requests, ranks, selectTools) {
  for (const [index, rank] of ranks.entries()) {
    if (rank <= 5) continue;
    const { request, operations } = requests[index];
    const top = selectTools(tools, request, { limit: 5 }).map((selected) => `${operationKey(selected.tool)} (${selected.score.toFixed(1)})`);
    log(`  miss ${api.key} rank ${rank}: ${request}\n      want ${operations.join(' | ')}\n      got  ${top.join('\n           ')}`);
  }
}

async function loadEmbedder(specifier) {
  if (specifier === 'fake') {
    const { createHashedTrigramEmbedder } = await importAicap('tools/selection/hashed-trigram-embedder', '.js');
    return {
      embed: createHashedTrigramEmbedder(),
      label: 'a deterministic FAKE embedder (hashed bag of character trigrams, 256 dimensions; no semantics, no model): it shows the fusion path works, not what a real embedding model would add',
    };
  }
  const module = await import(new URL(specifier, `file://${process.cwd()}/`).href);
  if (typeof module.default !== 'function') throw new Error(`--embedder ${specifier}: the module must export default an embed(texts) function`);
  return { embed: module.default, label: `the embedder of ${specifier}` };
}

await main();
