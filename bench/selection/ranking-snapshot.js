// The ranked lists `selectTools` returns for every labelled request (tuning, held-out, blind and intent
// sets), for checking that a change meant only for speed leaves every ranking byte for byte as it was.
//
//   node bench/selection/ranking-snapshot.js --out before.json      (then change, rebuild)
//   node bench/selection/ranking-snapshot.js --compare before.json   (exit code 1 on any difference)
//   node bench/selection/ranking-snapshot.js --top10 --out bench/selection/ranking-snapshot.json
//
// SELECTION_DIST picks another build (see evaluate-selection.js); SELECTION_MANIFEST_CACHE keeps the
// generated manifests between runs. Scores are written with all their digits: a reordering of equal
// scores or a change in the last bit of a score shows. `--top10` writes the form committed beside this
// script (the first 10 operations of each ranking, no scores), which ranking-snapshot.test.js compares
// the sources against: a change of ranking semantics rewrites that file in the same commit.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BLIND_APIS } from './blind-apis.js';
import { APIS, catalogOf, corpusAvailable, generateApiManifest, importAicap, operationKey } from './evaluate-selection.js';
import { loadRequests } from './selection-requests.js';

const CORPUS = new URL('../../../shared/corpus/', import.meta.url);
const PAYMENTS = new URL('../../examples/payments/payments.manifest.json', import.meta.url);
const DEPTH = 50;
/** The committed rankings: the first {@link COMMITTED_DEPTH} operations of each, without scores. */
export const COMMITTED_SNAPSHOT = new URL('./ranking-snapshot.json', import.meta.url);
export const COMMITTED_DEPTH = 10;

/** Rankings by set and request: the first `depth` operations, with their scores unless `withScores` is false. */
export async function rankingSnapshot({ depth = DEPTH, withScores = true } = {}) {
  const { selectTools } = await importAicap('tools');
  const { generateManifest } = await importAicap('openapi');
  const rankings = {};
  const rankAll = (set, tools, requests) => {
    for (const { request } of requests)
      rankings[`${set}\u0000${request}`] = selectTools(tools, request, { limit: depth }).map((selected) =>
        withScores ? `${operationKey(selected.tool)} ${selected.score}` : operationKey(selected.tool),
      );
  };
  const splits = ['tuning', 'held-out'].map((split) => [split, loadRequests(split)]);
  for (const api of APIS) {
    const tools = await catalogOf(await generateApiManifest(api));
    for (const [split, requests] of splits) rankAll(`${split}/${api.key}`, tools, requests.get(api.key) ?? []);
  }
  const blind = ['tuning', 'held-out'].map((split) => [split, loadRequests(`blind/${split}`)]);
  for (const api of BLIND_APIS) {
    const { manifest } = await generateManifest({ input: new URL(api.file, CORPUS).pathname, strict: false });
    const tools = await catalogOf(manifest);
    for (const [split, requests] of blind) rankAll(`blind/${split}/${api.key}`, tools, requests.get(api.key) ?? []);
  }
  const payments = await catalogOf(JSON.parse(readFileSync(PAYMENTS, 'utf8')));
  rankAll('intent/payments', payments, loadRequests('intent').get('payments') ?? []);
  return rankings;
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' }, compare: { type: 'string' }, top10: { type: 'boolean', default: false } } });
  if (!corpusAvailable()) return process.stderr.write('Ranking snapshot skipped: the corpus (../shared/corpus/) is not on this machine.\n');
  const rankings = await rankingSnapshot(values.top10 ? { depth: COMMITTED_DEPTH, withScores: false } : {});
  if (values.out) writeFileSync(values.out, `${JSON.stringify(rankings, null, 1)}\n`);
  if (!values.compare) return;
  const before = JSON.parse(readFileSync(values.compare, 'utf8'));
  const keys = new Set([...Object.keys(before), ...Object.keys(rankings)]);
  let differing = 0;
  for (const key of keys) {
    if (JSON.stringify(before[key]) === JSON.stringify(rankings[key])) continue;
    differing++;
    if (differing <= 10) process.stderr.write(`differs: ${key.replace('\u0000', ': ')}\n`);
  }
  process.stderr.write(`${keys.size} requests compared, ${differing} rankings differ\n`);
  if (differing > 0) process.exitCode = 1;
}

if (process.argv[1] === new URL(import.meta.url).pathname) await main();
