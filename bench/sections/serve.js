// Serving throughput, measured with autocannon: the aicap manifest route on each of the four ways to
// serve it (Express, Fastify, Hono, plain node:http), each beside a hand-written static route on the
// same framework that sends the same bytes and headers prepared once and does the same
// If-None-Match work (the fair "you could just serve a file" baseline), Express's floor (one
// `app.use` that writes the same answer: what Express costs per request before any route logic, on
// both sides of the comparison with MCP, which runs on Express too), and MCP `tools/list` of the
// same tools in the SDK's four server modes, on the SDK's Express app and on bare node:http, and the
// manifest answered in front of an Express app by `withAiCapabilities`. Each target is its own server process (so its RSS is its
// own); all of them are started first and then measured in short interleaved bursts (A, B, C, …, then
// C, B, A, …), so a burst of load from elsewhere on the machine hits every target alike. Ratios are
// taken round by round. The aicap route ÷ static route ratio of each framework has rounds of its own
// after those (`staticPairs`): aicap, static, static, aicap back to back, the ratio of the two sums,
// so that a load drifting steadily during the four bursts weighs on both sides alike. The two routes
// do nearly the same work, so their ratio is near 1, and in single adjacent bursts a drift of the
// machine's load moved it more than anything the routes do (Express's p25–p75 spanned 0.77–1.06 in
// one run); the worst of four such medians is then biased low. An A/A control runs in those rounds
// too: a second process of Fastify's static route against the first, which would give 1 on an ideal
// machine, so its spread is what this machine can resolve. Each burst also records the server
// process's CPU time, so every ratio has a twin by server CPU per request. Every target is checked with one real
// request first; autocannon's error, timeout and status counts are recorded with the figures.
import autocannon from 'autocannon';
import { MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH } from 'aicap';
import { startServerProcess } from '../lib/start-server-process.js';
import { medianOf, pairedRatio, round } from '../lib/measure.js';
import { MCP_MODES } from '../lib/mcp-payments-app.js';

const PROTOCOL_VERSION = '2025-06-18';
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION };
const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
export const FRAMEWORKS = ['express', 'fastify', 'hono', 'node'];
const FRAMEWORK_LABELS = { express: 'Express', fastify: 'Fastify', hono: 'Hono', node: 'node:http' };
const TARGETS = [
  ...FRAMEWORKS.flatMap((framework) => [
    { name: `aicap manifest route, ${FRAMEWORK_LABELS[framework]}`, set: `aicap-${framework}`, request: manifestRequest },
    { name: `static route, same bytes and ETag work, ${FRAMEWORK_LABELS[framework]}`, set: `static-${framework}`, request: manifestRequest },
  ]),
  { name: `static route, a second process of the same (A/A control), ${FRAMEWORK_LABELS.fastify}`, set: 'static-fastify-control', request: manifestRequest },
  { name: 'Express floor: one `app.use` writing the same answer, no checks', set: 'floor-express', request: manifestRequest },
  { name: 'aicap request listener in front of the Express app (`withAiCapabilities`), Express', set: 'listener-express', request: manifestRequest },
  ...MCP_MODES.map((mode) => ({ name: `MCP \`tools/list\`, ${mode.label}`, set: `mcp-${mode.key}`, request: mode.mode === 'stateful' ? statefulToolsListRequest : toolsListRequest, mcp: 'express' })),
  ...MCP_MODES.map((mode) => ({
    name: `MCP \`tools/list\` on node:http, ${mode.label}`,
    set: `mcpnode-${mode.key}`,
    request: mode.mode === 'stateful' ? statefulToolsListRequest : toolsListRequest,
    mcp: 'node',
  })),
];
const rowNameOf = (set) => TARGETS.find((target) => target.set === set).name;
const CONTROL = 'control';
/**
 * What `staticPairRatios` measures: each framework's aicap route against its static route, and an A/A
 * control, two processes of the same static route, whose ratio would be 1 on an ideal machine: how
 * far it strays says how much of an aicap ÷ static ratio this machine can tell from noise.
 */
export const STATIC_PAIRS = [
  ...FRAMEWORKS.map((framework) => ({ key: framework, first: `aicap-${framework}`, second: `static-${framework}` })),
  { key: CONTROL, first: 'static-fastify-control', second: 'static-fastify' },
];

/**
 * @param {{ connections: number, warmupInSeconds: number, rounds: number, burstInSeconds: number, staticPairs: number }} options
 */
export async function benchmarkServing(options) {
  const started = [];
  const targets = TARGETS.map((target) => ({ ...target, bursts: [] }));
  try {
    for (const target of targets) {
      const server = await startServerProcess(target.set);
      started.push(server);
      const request = await target.request(Object.values(server.origins)[0]);
      const probe = await fetch(request.url, { method: request.method, headers: request.headers, ...(request.body ? { body: request.body } : {}) });
      await probe.arrayBuffer();
      if (probe.status !== 200) throw new Error(`${target.name}: expected status 200, got ${probe.status}.`);
      Object.assign(target, { server, autocannonRequest: request });
    }
    // Each burst also records the server process's CPU time over it (all its threads), when the OS tells.
    const burst = async (target, duration) => {
      const before = target.server.serverCpuInMs?.();
      const result = await autocannon({ ...target.autocannonRequest, connections: options.connections, duration, pipelining: 1 });
      return before === undefined ? result : { ...result, serverCpuInMs: target.server.serverCpuInMs() - before };
    };
    for (const target of targets) await burst(target, options.warmupInSeconds);
    // Every other round runs the targets in reverse order (A B … B A): a drift in the machine's load during
    // a round then favours the first of a pair in one round and the second in the next, not always the same one.
    for (let index = 0; index < options.rounds; index++) {
      for (const target of index % 2 === 0 ? targets : [...targets].reverse()) target.bursts.push(await burst(target, options.burstInSeconds));
    }
    const rows = [];
    for (const target of targets) rows.push(await rowOf(target));
    const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
    const bySet = (set) => byName[rowNameOf(set)];
    const versus = (row, baseline) => pairedRatio(row.requestsPerSecondByRound, baseline.requestsPerSecondByRound, baseline.name);
    // The baseline's server CPU per request ÷ the row's: above 1 when the row's server does less per request.
    const versusCpu = (row, baseline) =>
      row.serverCpuPerRequestByRoundInUs && baseline.serverCpuPerRequestByRoundInUs
        ? pairedRatio(baseline.serverCpuPerRequestByRoundInUs, row.serverCpuPerRequestByRoundInUs, `${baseline.name}, server CPU per request`)
        : undefined;
    const paired = await staticPairRatios(targets, (target) => burst(target, options.burstInSeconds), options.staticPairs);
    const perFramework = paired.filter((entry) => entry.key !== CONTROL);
    const control = paired.find((entry) => entry.key === CONTROL);
    const fastestMcpOn = (framework) => rows.filter((_row, index) => targets[index].mcp === framework).reduce((best, row) => (row.requestsPerSecond > best.requestsPerSecond ? row : best));
    const fastestMcp = fastestMcpOn('express');
    const expressFloor = bySet('floor-express');
    /** Every comparison by one measure (`compare`), with the worst framework's and the control's ratios by that measure (`ratioOf`). */
    const comparisons = (compare, ratioOf) => {
      const worst = perFramework.reduce((low, entry) => (ratioOf(entry).median < ratioOf(low).median ? entry : low));
      return {
        versusStatic: { ...ratioOf(worst), against: `${ratioOf(worst).against} (the worst of the four frameworks)` },
        // The same measurement of two routes doing the same work: the resolution of `versusStatic`.
        staticControl: ratioOf(control),
        versusMcp: compare(bySet('aicap-express'), fastestMcp),
        // What bounds `versusMcp`: MCP runs on Express too, so Express's own cost per request is on both sides.
        expressFloorVersusMcp: compare(expressFloor, fastestMcp),
        expressVersusFloor: compare(bySet('aicap-express'), expressFloor),
        // The manifest answered in front of Express (`withAiCapabilities`) instead of inside it: beside `versusMcp`, never instead of it.
        expressListenerVersusMcp: compare(bySet('listener-express'), fastestMcp),
        // Framework-free on both sides: the node:http route against MCP's transport on bare node:http.
        nodeVersusMcp: compare(bySet('aicap-node'), fastestMcpOn('node')),
      };
    };
    return {
      rows,
      settings: options,
      perFramework,
      control,
      ...comparisons(versus, (entry) => entry.ratio),
      // The same comparisons by server CPU per request, when the OS gives a process's CPU time.
      cpu: paired.every((entry) => entry.cpuRatio) ? comparisons(versusCpu, (entry) => entry.cpuRatio) : undefined,
    };
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

/**
 * Each pair's first route ÷ its second (`STATIC_PAIRS`: each framework's aicap route ÷ its static
 * route, and the A/A control), from `rounds` rounds of four bursts (first, second, second, first;
 * pairs in a rotating order): per round the sum of the two first bursts' requests per second ÷ the
 * sum of the two second ones. Errors, timeouts and answers other than 200 in these bursts are
 * counted with the ratio, as the rows count them.
 */
export async function staticPairRatios(targets, burst, rounds) {
  const bySet = (set) => targets.find((target) => target.set === set);
  const byPair = new Map(STATIC_PAIRS.map((pair) => [pair.key, { first: [], second: [], firstCpu: [], secondCpu: [], bursts: [] }]));
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < STATIC_PAIRS.length; step++) {
      const pair = STATIC_PAIRS[(round + step) % STATIC_PAIRS.length];
      const entry = byPair.get(pair.key);
      const run = async (set) => {
        const result = await burst(bySet(set));
        entry.bursts.push(result);
        return result;
      };
      const first = [await run(pair.first)];
      const second = [await run(pair.second), await run(pair.second)];
      first.push(await run(pair.first));
      entry.first.push(sum(first.map((result) => result.requests.average)));
      entry.second.push(sum(second.map((result) => result.requests.average)));
      entry.firstCpu.push(cpuPerRequestInUs(first));
      entry.secondCpu.push(cpuPerRequestInUs(second));
    }
  }
  return STATIC_PAIRS.map((pair) => {
    const entry = byPair.get(pair.key);
    const { okShare, errors } = tallyOf(entry.bursts);
    const side = pair.key === CONTROL ? 'control' : 'aicap';
    const against = `${rowNameOf(pair.second)}, rounds of ${side}, static, static, ${side}`;
    // A burst of either side without a CPU reading leaves the pair without a CPU ratio, not with NaN in it.
    const measured = [...entry.firstCpu, ...entry.secondCpu].every((value) => value !== undefined);
    const cpuRatio = measured ? pairedRatio(entry.secondCpu, entry.firstCpu, `${against}, server CPU per request`) : undefined;
    return { key: pair.key, ratio: pairedRatio(entry.first, entry.second, against), ...(cpuRatio ? { cpuRatio } : {}), okShare, errors };
  });
}

async function rowOf(target) {
  const { requests, okShare, errors } = tallyOf(target.bursts);
  const cpuByRound = target.bursts.map((result) => cpuPerRequestInUs([result]));
  return {
    name: target.name,
    requestsPerSecond: round(medianOf(target.bursts.map((result) => result.requests.average)), 0),
    requestsPerSecondByRound: target.bursts.map((result) => round(result.requests.average, 0)),
    ...(cpuByRound.every((value) => value !== undefined)
      ? { serverCpuPerRequestInUs: round(medianOf(cpuByRound), 1), serverCpuPerRequestByRoundInUs: cpuByRound.map((value) => round(value, 2)) }
      : {}),
    latencyP50InMs: medianOf(target.bursts.map((result) => result.latency.p50)),
    latencyP99InMs: medianOf(target.bursts.map((result) => result.latency.p99)),
    requests,
    okShare,
    errors,
    rssAtStartInMiB: round(target.server.startRssInBytes / 1_048_576, 1),
    rssAfterInMiB: round((await target.server.rss()) / 1_048_576, 1),
  };
}

/** Requests, the share answered 200, and errors plus timeouts over autocannon bursts. */
function tallyOf(bursts) {
  const requests = sum(bursts.map((result) => result.requests.total));
  const matching = sum(bursts.map((result) => result.statusCodeStats?.['200']?.count ?? 0));
  return { requests, okShare: round(matching / Math.max(1, requests), 4), errors: sum(bursts.map((result) => result.errors + result.timeouts)) };
}

/** The server's CPU time per request over bursts, in µs; undefined when a burst has no CPU reading or no request. */
function cpuPerRequestInUs(bursts) {
  if (bursts.some((result) => result.serverCpuInMs === undefined)) return undefined;
  const requests = sum(bursts.map((result) => result.requests.total));
  return requests === 0 ? undefined : (sum(bursts.map((result) => result.serverCpuInMs)) * 1000) / requests;
}

function sum(values) {
  return values.reduce((total, value) => total + value, 0);
}

async function manifestRequest(origin) {
  return { url: `${origin}${WELL_KNOWN_PATH}`, method: 'GET', headers: { accept: MANIFEST_MEDIA_TYPE } };
}

async function toolsListRequest(origin) {
  return { url: `${origin}/mcp`, method: 'POST', headers: MCP_HEADERS, body: TOOLS_LIST };
}

/** A stateful server answers `tools/list` only inside a session: open one as a client would, then reuse it. */
async function statefulToolsListRequest(origin) {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'aicap-bench', version: '1.0.0' } },
  });
  const opened = await fetch(`${origin}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: initialize });
  await opened.arrayBuffer();
  const sessionId = opened.headers.get('mcp-session-id');
  if (!sessionId) throw new Error(`${origin}/mcp opened no session (status ${opened.status}).`);
  const headers = { ...MCP_HEADERS, 'mcp-session-id': sessionId };
  const initialized = await fetch(`${origin}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  await initialized.arrayBuffer();
  return { url: `${origin}/mcp`, method: 'POST', headers, body: TOOLS_LIST };
}
