// Scale: the generated manifests of three big real APIs from the shared corpus (GitHub, Stripe,
// Kubernetes), generated with the generator's defaults, served with `createManifestHandler` (base_url
// rebound to the server's origin, as `aicap serve` does) beside MCP servers listing the same tools
// (what a client's catalog exports for MCP) in the SDK's four modes. Per API: bytes on the wire
// (identity, gzip, br, and MCP's `tools/list` answer), cold discovery against the floor and the
// fastest MCP mode, what the client's checks cost on those bytes (sections/checks.js), revalidation
// (304), a cache hit within max-age, and the first tool selection on a fresh catalog (index build
// included). Kubernetes also gets a whole-process figure: one cold
// discovery in a fresh Node process, its wall time and peak RSS.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { request } from 'undici';
import { MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH } from 'aicap';
import { createClient } from 'aicap/client';
import { generateManifest } from 'aicap/openapi';
import { selectTools } from 'aicap/tools';
import { medianOf, round, spreadOf } from '../lib/measure.js';
import { mcpToolsOf } from '../lib/mcp-payments-app.js';
import { startServerProcess } from '../lib/start-server-process.js';
import { benchmarkChecks, ceilingsOf } from './checks.js';
import { benchmarkColdDiscovery } from './discovery.js';
import { benchmarkFirstTurn } from './first-turn.js';
import { benchmarkRevalidation } from './revalidation.js';
import { loadRequests } from '../selection/selection-requests.js';

const run = promisify(execFile);
const CORPUS = new URL('../../../shared/corpus/', import.meta.url);
const DISCOVER_ONCE = new URL('./discover-once.js', import.meta.url);
export const SCALE_APIS = [
  { name: 'github', label: 'GitHub REST API (2020-07)', file: 'big/github-api.github.com-2020-07.json', query: 'open a new bug report in the octocat/hello-world repo' },
  { name: 'stripe', label: 'Stripe API (2022-04)', file: 'big/stripe-spec3-2022-04.json', query: 'refund the last charge of customer cus_123' },
  { name: 'kubernetes', label: 'Kubernetes API', file: 'big/kubernetes-swagger.json', query: 'scale the deployment web in namespace prod to 3 replicas' },
];
const WHOLE_PROCESS_RUNS = 3;
// A fresh process's CPU swings by a quarter from one to the next (background compilation and GC
// threads finish inside the first operation or after it), so five rounds left the median to chance.
const FRESH_PROCESS_RUNS = 9;

/** @param {{ discovery: object, revalidation: object, checks: object }} iterations */
export async function benchmarkScale(iterations) {
  if (!existsSync(new URL(SCALE_APIS[0].file, CORPUS))) return { pending: `The shared corpus (${CORPUS.pathname}) is not on this machine.` };
  const directory = mkdtempSync(join(tmpdir(), 'aicap-bench-scale-'));
  try {
    const apis = [];
    for (const api of SCALE_APIS) {
      const startedAt = performance.now();
      const { manifest } = await generateManifest({ input: new URL(api.file, CORPUS).pathname });
      const generationInMs = performance.now() - startedAt;
      const file = join(directory, `${api.name}.json`);
      const compact = JSON.stringify(manifest);
      writeFileSync(file, compact);
      apis.push({ ...api, manifest, file, generationInMs: round(generationInMs, 0), manifestBytes: Buffer.byteLength(compact), mcpToolCount: (await mcpToolsOf(manifest)).length });
    }
    const listFile = join(directory, 'list.json');
    writeFileSync(listFile, JSON.stringify(apis.map(({ name, file }) => ({ name, file }))));
    const servers = await startServerProcess('scale', [listFile]);
    try {
      const rows = [];
      for (const api of apis) rows.push(await measureApi(api, servers, iterations));
      return { rows };
    } finally {
      await servers.stop();
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

async function measureApi(api, servers, iterations) {
  const { origins } = servers;
  const mcpOrigins = Object.fromEntries(
    Object.entries(origins)
      .filter(([name]) => name.startsWith(`${api.name}Mcp`))
      .map(([name, origin]) => [name.slice(`${api.name}Mcp`.length), origin]),
  );
  const wire = await bytesOnTheWire(origins[api.name], mcpOrigins.StatelessJson);
  const cold = await benchmarkColdDiscovery({
    origin: origins[api.name],
    mcpOrigins,
    toolCount: api.manifest.tools.length,
    mcpToolCount: api.mcpToolCount,
    serverCpuInMs: servers.serverCpuInMs,
    iterations: iterations.discovery,
  });
  const served = await request(`${origins[api.name]}${WELL_KNOWN_PATH}`, { headers: { accept: MANIFEST_MEDIA_TYPE } });
  const checks = benchmarkChecks(Buffer.from(await served.body.arrayBuffer()), iterations.checks);
  checks.ceilings = ceilingsOf(cold, checks);
  const revalidation = await benchmarkRevalidation({
    revalidateOrigin: origins[`${api.name}Revalidate`],
    freshOrigin: origins[api.name],
    mcpOrigins,
    servers,
    servedBy: { revalidate: `${api.name}Revalidate`, fresh: api.name },
    iterations: iterations.revalidation,
  });
  const selection = await firstSelection(origins[api.name], api.query);
  const wholeProcess = api.name === 'kubernetes' ? await wholeProcessDiscovery(origins[api.name]) : undefined;
  const firstTurn =
    api.name === 'kubernetes'
      ? undefined
      : await benchmarkFirstTurn({
          origin: origins[api.name],
          mcpOrigins,
          query: api.query,
          requests: heldOutRequests(api.name),
          serverCpuInMs: servers.serverCpuInMs,
          iterations: iterations.discovery,
        });
  const freshProcess = api.name === 'github' ? await freshProcessDiscovery(origins[api.name], mcpOrigins) : undefined;
  return {
    name: api.name,
    label: api.label,
    tools: api.manifest.tools.length,
    mcpTools: api.mcpToolCount,
    generationInMs: api.generationInMs,
    manifestBytes: api.manifestBytes,
    wire,
    cold,
    checks,
    revalidation,
    selection,
    ...(wholeProcess ? { wholeProcess } : {}),
    ...(firstTurn ? { firstTurn } : {}),
    ...(freshProcess ? { freshProcess } : {}),
  };
}

/**
 * The first discovery of a new Node process (JIT cold, modules just loaded): aicap with nothing stored
 * (cold), aicap on the file cache store of `aicap/node` holding the manifest's verified record (known:
 * an earlier process discovered it and kept that record alone, so the whole manifest is still
 * downloaded; each process gets its own copy of that directory, so the HTTP entry one writes never
 * reaches the next), against MCP's connect + listTools in the two JSON modes, processes alternating
 * (each round starting with the next target),
 * by the client CPU time of that first operation (and its wall time); each ratio is the faster MCP
 * mode's median ÷ aicap's. Three more targets bound those ratios from above: the floor (a bare
 * request + `JSON.parse`, what any client spends), the floor's request followed by the strict read
 * alone (the I-JSON checks of the whole document that section 2 of the specification makes every
 * client run before using any of it: MCP ÷ this is the most any conforming client's first contact can
 * reach, however it defers validation) and followed by `parseManifest` (the strict read and
 * validation, with no other client work: the most a cold discovery that validates the whole manifest
 * at once can reach).
 */
export async function freshProcessDiscovery(origin, mcpOrigins, rounds = FRESH_PROCESS_RUNS) {
  const directory = mkdtempSync(join(tmpdir(), 'aicap-bench-fresh-'));
  try {
    const primed = join(directory, 'primed');
    await run(process.execPath, [DISCOVER_ONCE.pathname, origin, 'prime', primed], { timeout: 60_000 });
    const knownCopy = (attempt) => {
      const copy = join(directory, `known-${attempt}`);
      cpSync(primed, copy, { recursive: true });
      return copy;
    };
    const targets = [
      { name: 'aicap', args: () => [origin] },
      { name: 'aicap, verified record on disk', args: (attempt) => [origin, 'known', knownCopy(attempt)] },
      { name: 'floor: `node:http` request + one-byte decoding + `JSON.parse`', args: () => [origin, 'floor'] },
      { name: 'floor request + the strict read (section 2 of the specification), no other client work', args: () => [origin, 'strict'] },
      { name: 'floor request + `parseManifest` (strict read and validation, no other client work)', args: () => [origin, 'checks'] },
      { name: 'MCP stateless, JSON answers', args: () => [mcpOrigins.StatelessJson, 'mcp'] },
      { name: 'MCP stateful, JSON answers', args: () => [mcpOrigins.StatefulJson, 'mcp'] },
    ];
    const runs = targets.map(() => []);
    for (let attempt = 0; attempt < rounds; attempt++) {
      // Each round starts with the next target: none always runs first, or right after the same one.
      for (let step = 0; step < targets.length; step++) {
        const index = (attempt + step) % targets.length;
        const { stdout } = await run(process.execPath, [DISCOVER_ONCE.pathname, ...targets[index].args(attempt)], { timeout: 60_000 });
        runs[index].push(JSON.parse(stdout.trim().split('\n').at(-1)));
      }
    }
    const rows = targets.map((target, index) => freshProcessRow(target.name, runs[index]));
    const [aicap, known, floor, strict, checks, ...mcp] = rows;
    const fastest = mcp.reduce((best, row) => (row.cpuInMs < best.cpuInMs ? row : best));
    const versus = (row, against = '') => ({ median: round(fastest.cpuInMs / row.cpuInMs, 3), rounds, against: `${fastest.name}${against}, first operation's client CPU (ratio of medians)` });
    return {
      rows,
      versusMcpCpu: versus(aicap),
      knownVersusMcpCpu: versus(known),
      floorVersusMcpCpu: versus(floor, ' ÷ the floor'),
      strictReadVersusMcpCpu: versus(strict, ' ÷ (the floor + the strict read)'),
      checksVersusMcpCpu: versus(checks, ' ÷ (the floor + `parseManifest`)'),
      // The client's module load counted too, on both sides: what a process pays to import the client and discover once.
      withImportVersusMcpCpu: {
        median: round(Math.min(...mcp.map((row) => row.moduleLoadAndDiscoveryCpuInMs)) / aicap.moduleLoadAndDiscoveryCpuInMs, 3),
        rounds,
        against: "the fastest MCP mode, its client's module load + first operation's client CPU (ratio of medians of the sums)",
      },
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The selection evaluation's held-out requests of an API (written before the selector): a first turn's tokens over many requests. */
function heldOutRequests(name) {
  const label = `bench/selection/held-out/${name}.jsonl`;
  const entries = loadRequests('held-out').get(name);
  if (!entries)
    throw new Error(`${label} is missing: the first-turn section measures tokens over the held-out requests of every API it runs; write that file or leave the API out of SCALE_APIS' first turn.`);
  return { label, requests: entries.map((entry) => entry.request) };
}

/** Medians over the processes of one target (CPU with its p25–p75). */
function freshProcessRow(name, entries) {
  const cpu = spreadOf(entries.map((entry) => entry.cpuInMs));
  return {
    name,
    runs: entries.length,
    cpuInMs: round(cpu.median, 1),
    cpuP25InMs: round(cpu.p25, 1),
    cpuP75InMs: round(cpu.p75, 1),
    discoveryInMs: round(medianOf(entries.map((entry) => entry.discoveryInMs)), 1),
    moduleLoadCpuInMs: round(medianOf(entries.map((entry) => entry.moduleLoadCpuInMs)), 1),
    moduleLoadAndDiscoveryCpuInMs: round(medianOf(entries.map((entry) => entry.moduleLoadCpuInMs + entry.cpuInMs)), 1),
  };
}

/** Body bytes as they travel (undici.request does not decode), for each coding the handler offers. */
async function bytesOnTheWire(origin, mcpOrigin) {
  const sizeOf = async (encoding) => {
    const answer = await request(`${origin}${WELL_KNOWN_PATH}`, { headers: { accept: MANIFEST_MEDIA_TYPE, 'accept-encoding': encoding } });
    const bytes = Buffer.from(await answer.body.arrayBuffer()).byteLength;
    return { bytes, contentEncoding: answer.headers['content-encoding'] ?? 'identity' };
  };
  const mcp = await request(`${mcpOrigin}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  return {
    identity: await sizeOf('identity'),
    gzip: await sizeOf('gzip'),
    br: await sizeOf('br'),
    mcpToolsList: { bytes: Buffer.from(await mcp.body.arrayBuffer()).byteLength, contentEncoding: mcp.headers['content-encoding'] ?? 'identity' },
  };
}

/** The first `selectTools` on a fresh catalog (builds the index) and a second query on the same catalog. */
async function firstSelection(origin, query) {
  const first = [];
  const second = [];
  let top;
  for (let index = 0; index < 5; index++) {
    const client = createClient();
    try {
      await client.discover(origin);
      let startedAt = performance.now();
      top = selectTools(client.catalog().tools, query, { limit: 5 });
      first.push(performance.now() - startedAt);
      startedAt = performance.now();
      selectTools(client.catalog().tools, `${query} again`, { limit: 5 });
      second.push(performance.now() - startedAt);
    } finally {
      await client.close();
    }
  }
  return { query, firstInMs: round(medianOf(first)), nextInMs: round(medianOf(second)), top: top.map((entry) => entry.tool.name) };
}

/** One cold discovery in a fresh Node process: wall time of the discovery and the process's peak RSS. */
async function wholeProcessDiscovery(origin) {
  const runs = [];
  for (let index = 0; index < WHOLE_PROCESS_RUNS; index++) {
    const { stdout } = await run(process.execPath, [DISCOVER_ONCE.pathname, origin], { timeout: 60_000 });
    runs.push(JSON.parse(stdout.trim().split('\n').at(-1)));
  }
  return {
    runs: runs.length,
    discoveryInMs: round(medianOf(runs.map((entry) => entry.discoveryInMs)), 1),
    peakRssInMiB: round(medianOf(runs.map((entry) => entry.peakRssInMiB)), 1),
    baselineRssInMiB: round(medianOf(runs.map((entry) => entry.baselineRssInMiB)), 1),
  };
}
