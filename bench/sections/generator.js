// Section 5: the OpenAPI generator on the largest corpus descriptions, one fresh process per
// description so that peak RSS is that description's alone. The measuring unit is the generator's own
// `bench/generator-one.js`; its full benchmark (3 runs each, the whole corpus) is `node
// bench/generator.js`, which writes bench/generator-results.md.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { round } from '../lib/measure.js';

const run = promisify(execFile);
const BENCH = new URL('./', new URL('../', import.meta.url));
const CORPUS = new URL('../../shared/corpus/', BENCH);
const ONE = new URL('generator-one.js', BENCH);
const TIMEOUT_IN_MS = 120_000;
// The four the issue names; DigitalOcean has an operation without `responses`, so it needs lenient mode.
const LARGEST = [
  { file: 'big/kubernetes-swagger.json', lenient: false },
  { file: 'big/github-api.github.com-2020-07.json', lenient: false },
  { file: 'big/stripe-spec3-2022-04.json', lenient: false },
  { file: 'multifile/digitalocean-public-v2/specification/DigitalOcean-public.v2.yaml', lenient: true },
];

export async function benchmarkGenerator() {
  if (!existsSync(ONE)) return { pending: 'The generator benchmark (`bench/generator-one.js`) has not landed yet.' };
  if (!existsSync(CORPUS)) return { pending: `The shared corpus (${CORPUS.pathname}) is not on this machine.` };
  const rows = [];
  for (const { file, lenient } of LARGEST) {
    const args = [ONE.pathname, new URL(file, CORPUS).pathname, '--ref-root', CORPUS.pathname, ...(lenient ? ['--lenient'] : [])];
    const { stdout } = await run(process.execPath, args, { timeout: TIMEOUT_IN_MS, maxBuffer: 16 * 1024 * 1024 });
    const result = JSON.parse(stdout.trim().split('\n').at(-1));
    if (!result.ok) throw new Error(`Generating ${file} failed: ${result.code} ${result.message}`);
    rows.push({
      description: `${file}${lenient ? ' (lenient)' : ''}`,
      operations: result.operations,
      tools: result.tools,
      warnings: result.warnings,
      wallInMs: round(result.elapsedInMs, 0),
      cpuInMs: round(result.cpuInMs, 0),
      peakRssInMiB: round(result.peakRssInMiB, 0),
      manifestInMiB: round(result.manifestBytes / 1_048_576, 1),
    });
  }
  const kubernetes = rows[0];
  return {
    rows,
    target: { description: 'Kubernetes ≤ 3000 ms and ≤ 400 MiB peak RSS', met: kubernetes.wallInMs <= 3000 && kubernetes.peakRssInMiB <= 400 },
    fullResults: existsSync(new URL('generator-results.md', BENCH)) ? 'bench/generator-results.md' : undefined,
  };
}
