// Section 4: serving throughput, measured with autocannon against one server process at a time
// (fresh process per target, so its RSS is its own): the `aicap/express` manifest route (200, and 304
// with `If-None-Match`), a plain Express route sending the same bytes, and MCP stateless `tools/list`
// (the SDK's default SSE answers, and its JSON-response mode). Every target is checked with one real
// request first; autocannon's error and non-2xx counts are recorded with the figures.
import autocannon from 'autocannon';
import { MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH } from 'aicap';
import { startServerProcess } from '../lib/start-server-process.js';
import { round } from '../lib/measure.js';

const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

/**
 * @param {{ durationInSeconds: number, warmupInSeconds: number, connections: number }} options
 */
export async function benchmarkServing(options) {
  const targets = [
    { name: 'aicap/express manifest route, 200', set: 'aicap-express', request: manifestRequest, expectStatus: 200 },
    { name: 'aicap/express manifest route, 304 (If-None-Match)', set: 'aicap-express', request: conditionalRequest, expectStatus: 304 },
    { name: 'static Express route, same bytes, 200', set: 'static-express', request: manifestRequest, expectStatus: 200 },
    { name: 'MCP stateless `tools/list` (SSE answer, SDK default)', set: 'mcp-stateless', request: toolsListRequest, expectStatus: 200 },
    { name: 'MCP stateless `tools/list` (`enableJsonResponse`)', set: 'mcp-stateless-json', request: toolsListRequest, expectStatus: 200 },
  ];
  const rows = [];
  for (const target of targets) {
    const server = await startServerProcess(target.set);
    try {
      const origin = Object.values(server.origins)[0];
      const request = await target.request(origin);
      const probe = await fetch(request.url, { method: request.method, headers: request.headers, ...(request.body ? { body: request.body } : {}) });
      await probe.arrayBuffer();
      if (probe.status !== target.expectStatus) throw new Error(`${target.name}: expected status ${target.expectStatus}, got ${probe.status}.`);
      const run = (duration) => autocannon({ ...request, connections: options.connections, duration, pipelining: 1 });
      await run(options.warmupInSeconds);
      const result = await run(options.durationInSeconds);
      const matching = result.statusCodeStats?.[String(target.expectStatus)]?.count ?? 0;
      rows.push({
        name: target.name,
        requestsPerSecond: round(result.requests.average, 0),
        latencyP50InMs: result.latency.p50,
        latencyP99InMs: result.latency.p99,
        requests: result.requests.total,
        expectedStatus: target.expectStatus,
        expectedStatusShare: round(matching / Math.max(1, result.requests.total), 4),
        errors: result.errors,
        timeouts: result.timeouts,
        bytesPerSecond: round(result.throughput.average, 0),
        rssAtStartInMiB: round(server.startRssInBytes / 1_048_576, 1),
        rssAfterInMiB: round((await server.rss()) / 1_048_576, 1),
      });
    } finally {
      await server.stop();
    }
  }
  const [aicap, , staticExpress, mcpSse, mcpJson] = rows;
  const fasterMcp = mcpSse.requestsPerSecond >= mcpJson.requestsPerSecond ? mcpSse : mcpJson;
  return {
    rows,
    settings: options,
    ratios: {
      versusStaticExpress: { value: aicap.requestsPerSecond / staticExpress.requestsPerSecond, against: staticExpress.name },
      versusMcpStateless: { value: aicap.requestsPerSecond / fasterMcp.requestsPerSecond, against: fasterMcp.name },
    },
  };
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
