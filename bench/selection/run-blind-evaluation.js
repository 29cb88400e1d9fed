// The blind sets (blind/): requests for APIs no earlier set used, written with their gold operations
// before any selector ran on them. Reports recall@1, recall@5 and MRR per API and split for
// `selectTools` and for plain BM25, and pools them.
//
//   node bench/selection/run-blind-evaluation.js [--label <run>] [--write] [--misses] [--set unseen|round3f|round3g|round3h]
//
// `--write` records the run under its label in blind/results.json (`first-run` was recorded before any
// selector change); `--misses` prints the tuning split's misses (never the held-out split's); `--set <name>`
// runs a whole set instead (blind/<name>/, in aggregate only) into blind/<name>-results.json: `unseen` (one run
// after a round's changes), `round3f`, `round3g` and `round3h` (one run before the round's changes, one after).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BLIND_APIS, WHOLE_SETS } from './blind-apis.js';
import { createBm25Ranking } from './bm25-baseline.js';
import { catalogOf, importAicap, metricsOf, operationKey, ranksOf, servableRequests } from './evaluate-selection.js';
import { loadRequests } from './selection-requests.js';

const CORPUS = new URL('../../../shared/corpus/', import.meta.url);
const RESULTS = new URL('./blind/results.json', import.meta.url);
const log = (message) => process.stderr.write(`${message}\n`);

async function main() {
  const { values } = parseArgs({
    options: { label: { type: 'string', default: 'current' }, write: { type: 'boolean', default: false }, misses: { type: 'boolean', default: false }, set: { type: 'string' } },
  });
  // `--set <name>`: a set run whole (blind/<name>/), in aggregate only.
  const whole = values.set === undefined ? undefined : WHOLE_SETS[values.set];
  if (values.set !== undefined && whole === undefined) throw new Error(`--set ${values.set}: expected one of ${Object.keys(WHOLE_SETS).join(', ')}`);
  const splits = whole ? [values.set] : ['tuning', 'held-out'];
  const apis = whole ? whole.apis : BLIND_APIS;
  const results = whole ? new URL(`./blind/${whole.results}`, import.meta.url) : RESULTS;
  if (!existsSync(CORPUS)) {
    log('Blind selection evaluation skipped: the corpus (../shared/corpus/) is not on this machine.');
    return;
  }
  const { generateManifest } = await importAicap('openapi');
  const { selectTools } = await importAicap('tools');
  const requestsBySplit = Object.fromEntries(splits.map((split) => [split, loadRequests(`blind/${split}`)]));
  const run = { label: values.label, date: new Date().toISOString(), apis: {}, pooled: {} };
  const pooledRanks = {};
  for (const api of apis) {
    const { manifest } = await generateManifest({ input: new URL(api.file, CORPUS).pathname, strict: false });
    const tools = await catalogOf(manifest);
    const bm25 = createBm25Ranking(tools);
    run.apis[api.key] = { name: api.name, tools: tools.length };
    for (const split of splits) {
      const { servable, withheld } = servableRequests(manifest, tools, requestsBySplit[split].get(api.key) ?? [], `blind/${split}/${api.key}.jsonl`);
      const selector = await ranksOf(servable, (request) => selectTools(tools, request, { limit: 50 }));
      const baseline = await ranksOf(servable, (request) => bm25(request).slice(0, 50));
      run.apis[api.key][split] = { withheld, selectTools: round(metricsOf(selector)), bm25: round(metricsOf(baseline)) };
      for (const [name, ranks] of [
        ['selectTools', selector],
        ['bm25', baseline],
      ]) {
        pooledRanks[`${split}/${name}`] = [...(pooledRanks[`${split}/${name}`] ?? []), ...ranks];
        pooledRanks[`all/${name}`] = [...(pooledRanks[`all/${name}`] ?? []), ...ranks];
      }
      if (values.misses && split === 'tuning') printMisses(api, servable, selector, tools, selectTools);
    }
    const both = splits.map((split) => run.apis[api.key][split]);
    log(`${api.name} (${tools.length} tools): ${splits.map((split, index) => `${split} ${format(both[index].selectTools)} | bm25 ${format(both[index].bm25)}`).join('\n    ')}`);
  }
  for (const [key, ranks] of Object.entries(pooledRanks)) run.pooled[key] = round(metricsOf(ranks));
  for (const [key, metrics] of Object.entries(run.pooled)) log(`pooled ${key}: ${format(metrics)}`);
  if (!values.write) return;
  const recorded = existsSync(results) ? JSON.parse(readFileSync(results, 'utf8')) : { runs: [] };
  recorded.runs = [...recorded.runs.filter((entry) => entry.label !== run.label), run];
  writeFileSync(results, `${JSON.stringify(recorded, null, 2)}\n`);
  log(`recorded "${run.label}" in ${results.pathname}`);
}

function round(metrics) {
  const { count, recallAt1, recallAt5, mrr } = metrics;
  return { count, recallAt1: Number(recallAt1.toFixed(3)), recallAt5: Number(recallAt5.toFixed(3)), mrr: Number(mrr.toFixed(3)) };
}

function format(metrics) {
  return `n=${metrics.count} r@1 ${metrics.recallAt1.toFixed(3)} r@5 ${metrics.recallAt5.toFixed(3)} MRR ${metrics.mrr.toFixed(3)}`;
}

function printMisses(api, requests, ranks, tools, selectTools) {
  for (const [index, rank] of ranks.entries()) {
    if (rank === 1) continue;
    const { request, operations } = requests[index];
    const top = selectTools(tools, request, { limit: 3 }).map((selected) => `${operationKey(selected.tool)} (${selected.score.toFixed(1)})`);
    log(`  ${api.key} rank ${rank}: ${request}\n      want ${operations.join(' | ')}\n      got  ${top.join(' ; ')}`);
  }
}

await main();
