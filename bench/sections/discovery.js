// Cold discovery. Every variant starts from nothing on each iteration: a fresh aicap client, a fresh
// MCP client, and for the baselines a fresh connection pool (undici 7 `Agent`, the HTTP stack the
// aicap client itself uses), so every timed iteration includes its TCP connect. Creating and
// closing clients and pools is outside the timed part.
//
// Baselines: the physical floor (a bare `undici.request` of the same manifest bytes + `JSON.parse`:
// no checks at all) and the MCP SDK's `connect` + `listTools` of the same tools in each of its four
// server modes; aicap is compared with the fastest of them, pair by pair. The floor decodes the bytes
// the cheapest correct way (`parseJsonBytes`: one byte per character, non-ASCII characters as `\u`
// escapes), as aicap's client does: the usual decoding (`body.text()`) turns a manifest with one
// curly quote into a two-byte string, which costs more than `JSON.parse` and would let aicap beat a
// floor that is meant to be a lower bound.
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request, fetch as undiciFetch } from 'undici';
import { MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH } from 'aicap';
import { createClient } from 'aicap/client';
import { againstFloorAndMcp, compareVariants, cpuRatios, pairedRatio, withoutSamples } from '../lib/measure.js';
import { createMcpClient } from '../lib/mcp-client.js';
import { parseJsonBytes } from '../lib/parse-json-bytes.js';
import { createRecordsOnlyStore } from '../lib/records-only-store.js';
import { MCP_MODES } from '../lib/mcp-payments-app.js';

/**
 * @param {{
 *   origin: string, mcpOrigins: Record<string, string>, toolCount: number, mcpToolCount?: number,
 *   clientOptions?: object, serverCpuInMs?: () => number, servers?: { counts(): Promise<Record<string, number>> }, servedBy?: { aicap: string, mcp: (key: string) => string },
 *   iterations: { warmupIterations: number, iterations: number, minIterations?: number, maxTimeInMs: number },
 * }} context
 */
export async function benchmarkColdDiscovery(context) {
  const expectCount = (expected) => (count) => {
    if (count !== expected) throw new Error(`Expected ${expected} tools, got ${count}.`);
  };
  const expectTools = expectCount(context.toolCount);
  // MCP lists the tools a client's catalog exports (deprecated and quarantined ones held back).
  const expectMcpTools = expectCount(context.mcpToolCount ?? context.toolCount);
  const mcpVariants = MCP_MODES.map((mode) => ({
    name: `MCP \`connect\` + \`listTools\`, ${mode.label}`,
    key: mode.key,
    async setup() {
      const dispatcher = new Agent();
      return { dispatcher, mcp: createMcpClient(`${context.mcpOrigins[mode.key]}/mcp`, { fetch: (url, init) => undiciFetch(url, { ...init, dispatcher }) }) };
    },
    async run({ mcp }) {
      await mcp.connect();
      return mcp.client.listTools();
    },
    check: (result) => expectMcpTools(result.tools.length),
    async teardown({ dispatcher, mcp }) {
      await mcp.close();
      await dispatcher.close();
    },
  }));
  const variants = [
    {
      name: 'aicap `client.discover` (new client)',
      setup: async () => createClient(context.clientOptions ?? {}),
      run: (client) => client.discover(context.origin),
      check: (service) => expectTools(service.manifest.tools.length),
      teardown: (client) => client.close(),
    },
    {
      name: 'floor: `undici.request` + one-byte decoding + `JSON.parse` (new pool)',
      setup: async () => new Agent(),
      async run(dispatcher) {
        const { body } = await request(`${context.origin}${WELL_KNOWN_PATH}`, { dispatcher, headers: { accept: MANIFEST_MEDIA_TYPE } });
        return parseJsonBytes(new Uint8Array(await body.arrayBuffer()));
      },
      check: (manifest) => expectTools(manifest.tools.length),
      teardown: (dispatcher) => dispatcher.close(),
    },
    ...mcpVariants,
    knownManifestVariant(context, expectTools),
  ];
  const rows = await compareVariants(variants, { ...context.iterations, ...(context.serverCpuInMs ? { serverCpuInMs: context.serverCpuInMs } : {}) });
  if (context.servers && context.servedBy) await countRequests(context, variants, rows);
  const known = rows.pop();
  const comparison = againstFloorAndMcp(rows);
  const [, floor, ...mcp] = rows;
  const fastestMcp = mcp.find((row) => row.name === comparison.versusMcp.against);
  return {
    ...comparison,
    known: {
      row: withoutSamples([known])[0],
      versusFloor: pairedRatio(known.samples, floor.samples, floor.name),
      versusMcp: pairedRatio(fastestMcp.samples, known.samples, fastestMcp.name),
      ...cpuRatios(known, floor, fastestMcp),
    },
  };
}

/**
 * aicap with the manifest already verified: a new client each iteration that still downloads the
 * manifest (no HTTP cache), with a verdict store an earlier client filled (the warm-up does). That is
 * a process meeting bytes it, or a process sharing its store, checked before.
 */
function knownManifestVariant(context, expectTools) {
  const verdictsOnly = createRecordsOnlyStore(['verified']);
  return {
    name: 'aicap `client.discover` (new client, manifest already verified)',
    setup: async () => createClient({ ...context.clientOptions, cache: verdictsOnly }),
    run: (client) => client.discover(context.origin),
    check: (service) => expectTools(service.manifest.tools.length),
    teardown: (client) => client.close(),
  };
}

// HTTP requests one discovery makes, counted by the servers in one extra untimed iteration per
// variant (teardown, such as the stateful session's DELETE, excluded). The MCP client opens its
// optional event stream in the background after connecting: it is given time to land.
async function countRequests(context, variants, rows) {
  const servedBy = [context.servedBy.aicap, context.servedBy.aicap, ...MCP_MODES.map((mode) => context.servedBy.mcp(mode.key)), context.servedBy.aicap];
  for (const [index, variant] of variants.entries()) {
    const state = variant.setup ? await variant.setup() : undefined;
    const before = (await context.servers.counts())[servedBy[index]];
    await variant.run(state);
    await delay(100);
    rows[index].requestsPerCall = (await context.servers.counts())[servedBy[index]] - before;
    if (variant.teardown) await variant.teardown(state);
  }
}
