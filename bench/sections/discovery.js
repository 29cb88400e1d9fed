// Section 1: cold discovery. Every variant starts from nothing on each iteration: a fresh aicap
// client, a fresh MCP client, and for all of them a fresh connection pool (undici 7 `Agent`, the
// HTTP stack the aicap client itself uses), so every timed iteration includes its TCP connect.
// Creating and closing clients and pools is outside the timed part.
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, fetch as undiciFetch } from 'undici';
import { MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH } from 'aicap';
import { createClient } from 'aicap/client';
import { compareVariants } from '../lib/measure.js';
import { createMcpClient } from '../lib/mcp-client.js';

const TOOL_COUNT = 5;

/** @param {{ origins: Record<string, string>, servers: { counts(): Promise<Record<string, number>> }, iterations: { warmupIterations: number, iterations: number, maxTimeInMs: number } }} context */
export async function benchmarkColdDiscovery(context) {
  const { payments, mcpStateless, mcpStateful } = context.origins;
  const pool = () => new Agent();
  const pooledFetch = (dispatcher) => (url, init) => undiciFetch(url, { ...init, dispatcher });
  const expectTools = (count) => {
    if (count !== TOOL_COUNT) throw new Error(`Expected ${TOOL_COUNT} tools, got ${count}.`);
  };
  const mcpVariant = (name, origin) => ({
    name,
    async setup() {
      const dispatcher = pool();
      return { dispatcher, mcp: createMcpClient(`${origin}/mcp`, { fetch: pooledFetch(dispatcher) }) };
    },
    async run({ mcp }) {
      await mcp.connect();
      return mcp.client.listTools();
    },
    check: (result) => expectTools(result.tools.length),
    async teardown({ dispatcher, mcp }) {
      await mcp.close();
      await dispatcher.close();
    },
  });
  const variants = [
    {
      name: 'aicap `client.discover` (new client)',
      setup: async () => createClient(),
      run: (client) => client.discover(payments),
      check: (service) => expectTools(service.manifest.tools.length),
      teardown: (client) => client.close(),
    },
    {
      name: 'raw `fetch` + `JSON.parse` (new pool)',
      setup: async () => pool(),
      async run(dispatcher) {
        const response = await undiciFetch(`${payments}${WELL_KNOWN_PATH}`, { dispatcher, headers: { accept: MANIFEST_MEDIA_TYPE } });
        return JSON.parse(await response.text());
      },
      check: (manifest) => expectTools(manifest.tools.length),
      teardown: (dispatcher) => dispatcher.close(),
    },
    mcpVariant('MCP `connect` + `listTools`, stateless', mcpStateless),
    mcpVariant('MCP `connect` + `listTools`, stateful', mcpStateful),
  ];
  const rows = await compareVariants(variants, context.iterations);
  // HTTP requests one discovery makes, counted by the servers in one extra untimed iteration per
  // variant (teardown, such as the stateful session's DELETE, excluded). The MCP client opens its
  // optional event stream in the background after connecting: it is given time to land.
  const servedBy = ['payments', 'payments', 'mcpStateless', 'mcpStateful'];
  for (const [index, variant] of variants.entries()) {
    const state = variant.setup ? await variant.setup() : undefined;
    const before = (await context.servers.counts())[servedBy[index]];
    await variant.run(state);
    await delay(100);
    rows[index].requestsPerCall = (await context.servers.counts())[servedBy[index]] - before;
    if (variant.teardown) await variant.teardown(state);
  }
  const [aicap, , stateless, stateful] = rows;
  const fasterMcp = stateless.medianInMs <= stateful.medianInMs ? stateless : stateful;
  return { rows, ratio: { value: fasterMcp.medianInMs / aicap.medianInMs, against: fasterMcp.name } };
}
