// First query of a process with a persisted selection index (issue 30 item 3): in a fresh process,
// the Kubernetes catalog (1,117 tools, quarantine lifted so that every tool is indexed) is queried
// once with the index built on first use, and once after `restoreSelectionIndex` from the JSON text a
// previous process wrote with `serializeSelectionIndex`; then warm queries. CPU time (user + system)
// and wall time; targets: first query with a persisted index ≤ 50 ms, warm query ≤ 2 ms.
//
//   node bench/selection-index-bench.js [--runs 3] [--write]
//
// `--write` records the summary in bench/selection-index-results.json. Each figure is the median over
// the runs (one fresh process each), with the least and the most for the first query built.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir, loadavg, cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { corpusAvailable, generateApiManifest, importAicap } from './selection/evaluate-selection.js';

const KUBERNETES = { key: 'kubernetes', name: 'Kubernetes', file: 'kubernetes-swagger.json' };
const REQUESTS = [
  'scale deployment api to 5 replicas in namespace prod',
  'delete the job nightly-backup in namespace ops',
  'show the logs of pod web-7d9f',
  'create a namespace called team-blue',
  'list the nodes',
  'cordon node worker-3',
];
export const SELECTION_INDEX_TARGETS = { firstQueryPersistedCpuInMs: 50, warmQueryCpuInMs: 2 };

async function catalogTools(manifestFile) {
  const { createClient } = await importAicap('client');
  const { createCatalog } = await importAicap('tools');
  const client = createClient({ trust: { maxTextLength: 1_000_000 } });
  try {
    const service = await client.load(JSON.parse(readFileSync(manifestFile, 'utf8')), { maxSizeInBytes: 64 * 1024 * 1024 });
    return createCatalog([service]).tools;
  } finally {
    await client.close();
  }
}

function timed(action) {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const result = action();
  const used = process.cpuUsage(cpu);
  return { result, cpuInMs: (used.user + used.system) / 1000, wallInMs: performance.now() - wall };
}

/** One fresh process: `mode` is `build` (index built by the first query) or `restore` (from indexFile). */
async function child(mode, manifestFile, indexFile) {
  const { selectTools, restoreSelectionIndex, serializeSelectionIndex } = await importAicap('tools');
  const tools = await catalogTools(manifestFile);
  let restore;
  if (mode === 'restore') restore = timed(() => restoreSelectionIndex(tools, JSON.parse(readFileSync(indexFile, 'utf8'))));
  const first = timed(() => selectTools(tools, REQUESTS[0]));
  const warm = [];
  for (let round = 0; round < 30; round++) for (const request of REQUESTS) warm.push(timed(() => selectTools(tools, request)).cpuInMs);
  warm.sort((left, right) => left - right);
  if (mode === 'build') writeFileSync(indexFile, JSON.stringify(serializeSelectionIndex(tools)));
  const restoredCpu = restore?.cpuInMs ?? 0;
  process.stdout.write(
    JSON.stringify({
      tools: tools.length,
      restored: restore?.result,
      firstQueryCpuInMs: restoredCpu + first.cpuInMs,
      firstQueryWallInMs: (restore?.wallInMs ?? 0) + first.wallInMs,
      warmMedianCpuInMs: warm[warm.length >> 1],
      warmP95CpuInMs: warm[Math.floor(warm.length * 0.95)],
    }),
  );
}

async function main() {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '3' }, write: { type: 'boolean', default: false }, child: { type: 'string' }, manifest: { type: 'string' }, index: { type: 'string' } },
  });
  if (values.child) return child(values.child, values.manifest, values.index);
  if (!corpusAvailable()) return process.stderr.write('Selection index bench skipped: the corpus (../shared/corpus/big/) is not on this machine.\n');
  const directory = mkdtempSync(join(tmpdir(), 'aicap-index-bench-'));
  const manifestFile = join(directory, 'kubernetes.json');
  writeFileSync(manifestFile, JSON.stringify(await generateApiManifest(KUBERNETES)));
  const indexFile = join(directory, 'index.json');
  const script = new URL(import.meta.url).pathname;
  const run = (mode) => JSON.parse(execFileSync(process.execPath, [script, '--child', mode, '--manifest', manifestFile, '--index', indexFile], { encoding: 'utf8', timeout: 120_000 }));
  const rows = [];
  for (let round = 0; round < Math.min(15, Number(values.runs)); round++) rows.push({ build: run('build'), restore: run('restore') });
  const sorted = (pick) => rows.map(pick).sort((left, right) => left - right);
  const median = (pick) => sorted(pick)[rows.length >> 1];
  const summary = {
    tools: rows[0].build.tools,
    indexBytes: readFileSync(indexFile).length,
    loadAverageAtEnd: loadavg()[0],
    cores: cpus().length,
    runs: rows.length,
    firstQueryBuiltCpuInMs: median((row) => row.build.firstQueryCpuInMs),
    firstQueryBuiltCpuRangeInMs: [sorted((row) => row.build.firstQueryCpuInMs)[0], sorted((row) => row.build.firstQueryCpuInMs).at(-1)],
    firstQueryBuiltWallInMs: median((row) => row.build.firstQueryWallInMs),
    warmMedianBuiltCpuInMs: median((row) => row.build.warmMedianCpuInMs),
    firstQueryPersistedCpuInMs: median((row) => row.restore.firstQueryCpuInMs),
    firstQueryPersistedWallInMs: median((row) => row.restore.firstQueryWallInMs),
    warmMedianCpuInMs: median((row) => row.restore.warmMedianCpuInMs),
    warmP95CpuInMs: median((row) => row.restore.warmP95CpuInMs),
    targets: SELECTION_INDEX_TARGETS,
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  if (values.write) writeFileSync(new URL('./selection-index-results.json', import.meta.url), `${JSON.stringify(summary, null, 2)}\n`);
}

await main();
