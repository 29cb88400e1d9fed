// Two builds side by side in one machine state: the Payments keys that are differences or ratios of
// absolute times (`call_client_us`, `revalidation_client_us`, discovery against the floor), which move
// with the machine's state from one `npm run bench` to the next. Each round runs one process per build,
// in alternating order, against the same servers; prints each build's medians over the rounds and the
// median of the paired differences (B − A). Nothing is written to results.json.
// Usage: node bench/compare-builds.js <dist A> <dist B> [rounds from 1 to 20, default 6]
// e.g. a worktree of main built beside this one: node bench/compare-builds.js ../main/dist dist 6
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startServerProcess } from './lib/start-server-process.js';
import { medianOf } from './lib/measure.js';

const [first, second, roundsText = '6'] = process.argv.slice(2);
const rounds = Number(roundsText);
if (!first || !second || !Number.isInteger(rounds) || rounds < 1 || rounds > 20)
  throw new Error(`Usage: node bench/compare-builds.js <dist A> <dist B> [rounds from 1 to 20], got ${process.argv.slice(2).join(' ')}`);
const builds = [resolve(first), resolve(second)];
for (const build of builds) if (!existsSync(`${build}/client/index.js`)) throw new Error(`${build}/client/index.js is missing: give the dist/ directory of a built checkout.`);
const child = new URL('./lib/compare-builds-child.js', import.meta.url).pathname;
const servers = await startServerProcess('latency');
const results = builds.map(() => []);
try {
  for (let round = 0; round < rounds; round++) {
    for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const output = execFileSync(process.execPath, [child, builds[index], servers.origins.payments, servers.origins.revalidate], { encoding: 'utf8', timeout: 180_000 });
      results[index].push(JSON.parse(output.trim().split('\n').at(-1)));
      process.stderr.write(`round ${round + 1}/${rounds}, ${index === 0 ? 'A' : 'B'}: ${output.trim()}\n`);
    }
  }
} finally {
  await servers.stop();
}
const keys = Object.keys(results[0][0]);
const summary = Object.fromEntries(
  keys.map((key) => {
    const [a, b] = results.map((runs) => runs.map((run) => run[key]));
    return [
      key,
      { A: medianOf(a), B: medianOf(b), pairedDifference: medianOf(b.map((value, index) => value - a[index])), A_range: [Math.min(...a), Math.max(...a)], B_range: [Math.min(...b), Math.max(...b)] },
    ];
  }),
);
process.stdout.write(`${JSON.stringify({ A: builds[0], B: builds[1], rounds, summary }, null, 2)}\n`);
