// The CLI as a user starts it: whole processes, wall time from spawn to exit, against `node -e 0`
// (Node's own start-up, the floor of any CLI written for it). `aicap --version` must load no command
// module; a cached `aicap call` finds the manifest, its verified digest and its verdicts in the file
// cache an untimed first run filled (AICAP_CACHE_DIR in a temporary directory). Processes of the
// three kinds alternate, round by round, so load from elsewhere hits them alike.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { pairedRatio, summarize, withoutSamples } from '../lib/measure.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** @param {{ origin: string, rounds: number }} context The Payments origin. */
export async function benchmarkCli(context) {
  const cacheDirectory = mkdtempSync(join(tmpdir(), 'aicap-bench-cli-cache-'));
  const environment = { ...process.env, AICAP_CACHE_DIR: cacheDirectory, NO_COLOR: '1' };
  const spawnTimed = (args) =>
    new Promise((resolve, reject) => {
      const startedAt = performance.now();
      execFile(process.execPath, args, { env: environment, timeout: 60_000 }, (error, stdout, stderr) => {
        const elapsedInMs = performance.now() - startedAt;
        if (error) reject(new Error(`${args.join(' ')} failed: ${stderr || error.message}`));
        else resolve({ elapsedInMs, stdout });
      });
    });
  const call = [CLI, 'call', context.origin, 'list_transactions', '{"account_id":"12345","limit":20}', '--token', 'demo-read', '--agent-id', 'bench-agent', '--json'];
  const kinds = [
    { name: '`node -e 0`', args: ['-e', '0'] },
    { name: '`aicap --version`', args: [CLI, '--version'] },
    { name: '`aicap call` with a warm file cache', args: call, check: (stdout) => JSON.parse(stdout).ok === true },
  ];
  try {
    await spawnTimed(call);
    const samples = kinds.map(() => []);
    for (let round = 0; round < context.rounds; round++) {
      for (let offset = 0; offset < kinds.length; offset++) {
        const index = (round + offset) % kinds.length;
        const { elapsedInMs, stdout } = await spawnTimed(kinds[index].args);
        if (kinds[index].check && !kinds[index].check(stdout)) throw new Error(`${kinds[index].name} printed an unexpected answer.`);
        samples[index].push(elapsedInMs);
      }
    }
    const rows = kinds.map((kind, index) => summarize(kind.name, samples[index]));
    return {
      rows: withoutSamples(rows),
      versionVersusNode: pairedRatio(samples[1], samples[0], kinds[0].name),
      callCachedVersusNode: pairedRatio(samples[2], samples[0], kinds[0].name),
    };
  } finally {
    rmSync(cacheDirectory, { recursive: true, force: true });
  }
}
