// `npm run bench`: aicap side by side with raw fetch, a static Express route and the MCP SDK, in one
// run on one machine. Writes bench/results.json (every figure) and bench/RESULTS.md (tables, ratios,
// targets met or missed, machine). Loopback only; every loop is bounded in count and time.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { describeMachine, loadAverage, packageVersions } from './lib/environment.js';
import { round } from './lib/measure.js';
import { assessTargets, renderReadmeHeadline, renderResults } from './lib/render-results.js';
import { startServerProcess } from './lib/start-server-process.js';
import { benchmarkCall } from './sections/call.js';
import { benchmarkColdDiscovery } from './sections/discovery.js';
import { benchmarkGenerator } from './sections/generator.js';
import { benchmarkRevalidation } from './sections/revalidation.js';
import { benchmarkServing } from './sections/serve.js';
import { benchmarkTokens } from './sections/tokens.js';

const BENCH = new URL('./', import.meta.url);
const README = new URL('../README.md', import.meta.url);
const HEADLINE = /(<!-- bench:headline:start -->\n)[\s\S]*?(\n<!-- bench:headline:end -->)/;
const SETTINGS = {
  discovery: { warmupIterations: 30, iterations: 400, maxTimeInMs: 25_000 },
  revalidation: { warmupIterations: 100, iterations: 1500, maxTimeInMs: 15_000 },
  call: { warmupIterations: 200, iterations: 2000, maxTimeInMs: 20_000 },
  serve: { connections: 10, warmupInSeconds: 1, rounds: 5, burstInSeconds: 2 },
};
const METHOD = [
  'Servers run in a child process, clients and autocannon in the parent, so neither shares a thread or a heap with the other.',
  'Latency variants run interleaved (one iteration of each in turn) after an untimed warm-up, so load from elsewhere hits every variant alike; each section stops at its iteration count or time bound (at least 30 rounds).',
  'Every iteration checks its answer (tool count, page length, `ok`), untimed; a wrong answer stops the run.',
  'Cold discovery: a new aicap client, a new MCP client, and a new undici 7 connection pool for every variant on every iteration (TCP connect included, creation and closing excluded). The stateful MCP client ends its session with DELETE after each iteration, untimed.',
  'MCP servers: the SDK\'s low-level `Server` + `StreamableHTTPServerTransport` on `createMcpExpressApp`, stateless (new server and transport per request) and stateful (session map), as the SDK documents; tools are `exportTools(catalog, \'mcp\')` of the same Payments manifest. `callTool(\'list_transactions\')` runs the REST handler\'s checks and slicing in process on the same generated data (it skips the rate-limit bookkeeping and `Link` header the REST endpoint also does).',
  'Revalidation: the 304 path uses an aicap/express server sending `max-age=0`, so every `discover` after the first is past max-age; "within max-age" uses the Payments server (`max-age=300`).',
  'One call: `client.call` runs with a new policy session every 40 calls, since the Payments manifest allows 50 actions per session.',
  `Serving: one server process per target (RSS is that process's), all started first, then autocannon with ${SETTINGS.serve.connections} connections: ${SETTINGS.serve.warmupInSeconds} s warm-up per target, then ${SETTINGS.serve.rounds} rounds of ${SETTINGS.serve.burstInSeconds} s bursts, one per target in turn; figures are medians over the rounds, ratios medians of the per-round ratios.`,
];

const log = (message) => process.stderr.write(`${message}\n`);

async function main() {
  const startedAt = performance.now();
  const atStart = loadAverage();
  log(`aicap benchmarks: load average ${atStart} on ${describeMachine().cores} cores.`);

  const servers = await startServerProcess('latency');
  let discovery, revalidation, call;
  try {
    log('1/6 cold discovery…');
    discovery = await benchmarkColdDiscovery({ origins: servers.origins, servers, iterations: SETTINGS.discovery });
    log('2/6 revalidation…');
    revalidation = await benchmarkRevalidation({ origins: servers.origins, servers, iterations: SETTINGS.revalidation });
    log('3/6 one call…');
    call = await benchmarkCall({ origins: servers.origins, iterations: SETTINGS.call });
  } finally {
    await servers.stop();
  }
  log('4/6 serving throughput…');
  const serve = await benchmarkServing(SETTINGS.serve);
  log('5/6 generator…');
  const generator = await benchmarkGenerator();
  log('6/6 tokens…');
  const tokens = await benchmarkTokens();

  const headline = {
    discovery_cold_vs_mcp: discovery.ratio,
    revalidation_vs_mcp: revalidation.ratio,
    call_vs_fetch: call.ratios.versusFetch,
    call_vs_mcp_stateful: call.ratios.versusMcp,
    serve_vs_static_express: serve.ratios.versusStaticExpress,
    serve_vs_mcp_stateless: serve.ratios.versusMcpStateless,
  };
  const results = {
    date: new Date().toISOString(),
    durationInSeconds: round((performance.now() - startedAt) / 1000, 0),
    machine: describeMachine(),
    loadAverage: { atStart, atEnd: loadAverage() },
    packages: packageVersions(),
    settings: SETTINGS,
    method: METHOD,
    ratios: Object.fromEntries(Object.entries(headline).map(([key, ratio]) => [key, round(ratio.value, 2)])),
    ratioBaselines: Object.fromEntries(Object.entries(headline).map(([key, ratio]) => [key, ratio.against])),
    targets: [],
    discovery: { rows: discovery.rows },
    revalidation: { rows: revalidation.rows },
    call: { rows: call.rows },
    serve: { settings: serve.settings, rows: serve.rows },
    generator,
    tokens,
  };
  results.targets = assessTargets(results.ratios);

  const analysisFile = new URL('analysis.md', BENCH);
  const analysis = existsSync(analysisFile) ? readFileSync(analysisFile, 'utf8') : undefined;
  writeFileSync(new URL('results.json', BENCH), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(new URL('RESULTS.md', BENCH), renderResults(results, analysis));
  // The README quotes the headline ratios; keep them those of the committed results.
  const readme = readFileSync(README, 'utf8');
  if (HEADLINE.test(readme)) writeFileSync(README, readme.replace(HEADLINE, (_match, start, end) => `${start}${renderReadmeHeadline(results)}${end}`));
  else log('⚠ README.md has no <!-- bench:headline:start/end --> markers: its Benchmarks figures were not updated.');

  const [discoverRow, , ...mcpDiscoverRows] = results.discovery.rows;
  const [revalidated, cached] = results.revalidation.rows;
  process.stdout.write(
    `HTTP requests (counted by the servers): cold discovery aicap ${discoverRow.requestsPerCall}, MCP ${mcpDiscoverRows.map((row) => row.requestsPerCall).join('/')}; discover past max-age ${revalidated.requestsPerCall}, within max-age ${cached.requestsPerCall}.\n`,
  );
  for (const target of results.targets) {
    const mark = target.met === undefined ? ' ' : target.met ? '✔' : '✘';
    process.stdout.write(`${mark} ${target.key.padEnd(24)} ${target.value.toFixed(2).padStart(7)}  (target ${target.target})\n`);
  }
  log(`Wrote bench/results.json, bench/RESULTS.md and the README's headline table in ${results.durationInSeconds} s.`);
}

main().catch((error) => {
  log(`✘ The benchmark failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 1;
});
