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
// one run); the worst of four such medians is then biased low. Every target is checked with one real
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
    const burst = (target, duration) => autocannon({ ...target.autocannonRequest, connections: options.connections, duration, pipelining: 1 });
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
    const perFramework = await staticPairRatios(targets, (target) => burst(target, options.burstInSeconds), options.staticPairs);
    const worst = perFramework.reduce((low, entry) => (entry.ratio.median < low.ratio.median ? entry : low));
    const fastestMcpOn = (framework) => rows.filter((_row, index) => targets[index].mcp === framework).reduce((best, row) => (row.requestsPerSecond > best.requestsPerSecond ? row : best));
    const fastestMcp = fastestMcpOn('express');
    const expressFloor = bySet('floor-express');
    return {
      rows,
      settings: options,
      perFramework,
      versusStatic: { ...worst.ratio, against: `${worst.ratio.against} (the worst of the four frameworks)` },
      versusMcp: versus(bySet('aicap-express'), fastestMcp),
      // What bounds `versusMcp`: MCP runs on Express too, so Express's own cost per request is on both sides.
      expressFloorVersusMcp: versus(expressFloor, fastestMcp),
      expressVersusFloor: versus(bySet('aicap-express'), expressFloor),
      // The manifest answered in front of Express (`withAiCapabilities`) instead of inside it: beside `versusMcp`, never instead of it.
      expressListenerVersusMcp: versus(bySet('listener-express'), fastestMcp),
      // Framework-free on both sides: the node:http route against MCP's transport on bare node:http.
      nodeVersusMcp: versus(bySet('aicap-node'), fastestMcpOn('node')),
    };
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

/**
 * Each framework's aicap route ÷ its static route, from `pairs` rounds of four bursts (aicap, static,
 * static, aicap; frameworks in a rotating order): per round the sum of the two aicap bursts' requests
 * per second ÷ the sum of the two static ones. Errors, timeouts and answers other than 200 in these
 * bursts are counted with the ratio, as the rows count them.
 */
export async function staticPairRatios(targets, burst, pairs) {
  const bySet = (set) => targets.find((target) => target.set === set);
  const byFramework = new Map(FRAMEWORKS.map((framework) => [framework, { aicap: [], static: [], bursts: [] }]));
  for (let round = 0; round < pairs; round++) {
    for (let step = 0; step < FRAMEWORKS.length; step++) {
      const framework = FRAMEWORKS[(round + step) % FRAMEWORKS.length];
      const entry = byFramework.get(framework);
      const rate = async (set) => {
        const result = await burst(bySet(set));
        entry.bursts.push(result);
        return result.requests.average;
      };
      const first = await rate(`aicap-${framework}`);
      const staticSum = (await rate(`static-${framework}`)) + (await rate(`static-${framework}`));
      entry.aicap.push(first + (await rate(`aicap-${framework}`)));
      entry.static.push(staticSum);
    }
  }
  return FRAMEWORKS.map((framework) => {
    const entry = byFramework.get(framework);
    const { okShare, errors } = tallyOf(entry.bursts);
    return { framework, ratio: pairedRatio(entry.aicap, entry.static, `${rowNameOf(`static-${framework}`)}, rounds of aicap, static, static, aicap`), okShare, errors };
  });
}

async function rowOf(target) {
  const { requests, okShare, errors } = tallyOf(target.bursts);
  return {
    name: target.name,
    requestsPerSecond: round(medianOf(target.bursts.map((result) => result.requests.average)), 0),
    requestsPerSecondByRound: target.bursts.map((result) => round(result.requests.average, 0)),
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
