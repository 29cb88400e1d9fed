// Section 4: serving throughput, measured with autocannon: the `aicap/express` manifest route (200,
// and 304 with `If-None-Match`), a plain Express route sending the same bytes, and MCP stateless
// `tools/list` (the SDK's default SSE answers, and its JSON-response mode). Each target is its own
// server process (so its RSS is its own); all of them are started first and then measured in short
// interleaved bursts (A, B, C, …, A, B, C, …), so a burst of load from elsewhere on the machine hits
// every target alike. Ratios are medians of the per-round ratios. Every target is checked with one
// real request first; autocannon's error, timeout and status counts are recorded with the figures.
import autocannon from 'autocannon';
import { MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH } from 'aicap';
import { startServerProcess } from '../lib/start-server-process.js';
import { medianOf, round } from '../lib/measure.js';

const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const TARGETS = [
  { name: 'aicap/express manifest route, 200', set: 'aicap-express', request: manifestRequest, expectStatus: 200 },
  { name: 'aicap/express manifest route, 304 (If-None-Match)', set: 'aicap-express', request: conditionalRequest, expectStatus: 304 },
  { name: 'static Express route, same bytes, 200', set: 'static-express', request: manifestRequest, expectStatus: 200 },
  { name: 'MCP stateless `tools/list` (SSE answer, SDK default)', set: 'mcp-stateless', request: toolsListRequest, expectStatus: 200 },
  { name: 'MCP stateless `tools/list` (`enableJsonResponse`)', set: 'mcp-stateless-json', request: toolsListRequest, expectStatus: 200 },
];

/**
 * @param {{ connections: number, warmupInSeconds: number, rounds: number, burstInSeconds: number }} options
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
      if (probe.status !== target.expectStatus) throw new Error(`${target.name}: expected status ${target.expectStatus}, got ${probe.status}.`);
      Object.assign(target, { server, autocannonRequest: request });
    }
    const burst = (target, duration) => autocannon({ ...target.autocannonRequest, connections: options.connections, duration, pipelining: 1 });
    for (const target of targets) await burst(target, options.warmupInSeconds);
    for (let index = 0; index < options.rounds; index++) {
      for (const target of targets) target.bursts.push(await burst(target, options.burstInSeconds));
    }
    const rows = [];
    for (const target of targets) {
      const total = sum(target.bursts.map((result) => result.requests.total));
      const matching = sum(target.bursts.map((result) => result.statusCodeStats?.[String(target.expectStatus)]?.count ?? 0));
      rows.push({
        name: target.name,
        requestsPerSecond: round(medianOf(target.bursts.map((result) => result.requests.average)), 0),
        requestsPerSecondByRound: target.bursts.map((result) => round(result.requests.average, 0)),
        latencyP50InMs: medianOf(target.bursts.map((result) => result.latency.p50)),
        latencyP99InMs: medianOf(target.bursts.map((result) => result.latency.p99)),
        requests: total,
        expectedStatus: target.expectStatus,
        expectedStatusShare: round(matching / Math.max(1, total), 4),
        errors: sum(target.bursts.map((result) => result.errors)),
        timeouts: sum(target.bursts.map((result) => result.timeouts)),
        rssAtStartInMiB: round(target.server.startRssInBytes / 1_048_576, 1),
        rssAfterInMiB: round((await target.server.rss()) / 1_048_576, 1),
      });
    }
    const [aicap, , staticExpress, mcpSse, mcpJson] = rows;
    const fasterMcp = mcpSse.requestsPerSecond >= mcpJson.requestsPerSecond ? mcpSse : mcpJson;
    const pairedRatio = (other) => medianOf(aicap.requestsPerSecondByRound.map((value, index) => value / other.requestsPerSecondByRound[index]));
    return {
      rows,
      settings: options,
      ratios: {
        versusStaticExpress: { value: pairedRatio(staticExpress), against: staticExpress.name },
        versusMcpStateless: { value: pairedRatio(fasterMcp), against: fasterMcp.name },
      },
    };
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

function sum(values) {
  return values.reduce((total, value) => total + value, 0);
}

async function manifestRequest(origin) {
  return { url: `${origin}${WELL_KNOWN_PATH}`, method: 'GET', headers: { accept: MANIFEST_MEDIA_TYPE } };
}

async function conditionalRequest(origin) {
  const response = await fetch(`${origin}${WELL_KNOWN_PATH}`);
  await response.arrayBuffer();
  const etag = response.headers.get('etag');
  if (!etag) throw new Error('The aicap manifest route sent no ETag.');
  return { url: `${origin}${WELL_KNOWN_PATH}`, method: 'GET', headers: { accept: MANIFEST_MEDIA_TYPE, 'if-none-match': etag } };
}

async function toolsListRequest(origin) {
  return { url: `${origin}/mcp`, method: 'POST', headers: MCP_HEADERS, body: TOOLS_LIST };
}
