// Section 2: refreshing what a connected agent already knows. aicap: `client.discover` again once the
// manifest is past max-age (a conditional GET answered 304 by a server sending `max-age=0`), and
// within max-age (answered from the client's cache: no request at all). MCP: a second `listTools` on
// a connected client (one POST each time; the protocol has no validators). Requests are counted on
// the servers, not inferred.
import { setTimeout as delay } from 'node:timers/promises';
import { createClient } from 'aicap/client';
import { compareVariants } from '../lib/measure.js';
import { createMcpClient } from '../lib/mcp-client.js';

/** @param {{ origins: Record<string, string>, servers: { counts(): Promise<Record<string, number>> }, iterations: { warmupIterations: number, iterations: number, maxTimeInMs: number } }} context */
export async function benchmarkRevalidation(context) {
  const { payments, revalidate, mcpStateless, mcpStateful } = context.origins;
  const stale = createClient();
  const fresh = createClient();
  const statefulMcp = createMcpClient(`${mcpStateful}/mcp`);
  const statelessMcp = createMcpClient(`${mcpStateless}/mcp`);
  await Promise.all([stale.discover(revalidate), fresh.discover(payments), statefulMcp.connect(), statelessMcp.connect()]);
  // After `connect` the MCP client opens its optional GET event stream in the background; let it
  // land before counting so it is not charged to `listTools`.
  await delay(200);
  try {
    const before = await context.servers.counts();
    const runs = { revalidate: 0, payments: 0, mcpStateful: 0, mcpStateless: 0 };
    const counted = (server, run) => async () => {
      runs[server]++;
      return run();
    };
    const variants = [
      { name: 'aicap `client.discover`, past max-age (304)', run: counted('revalidate', () => stale.discover(revalidate)) },
      { name: 'aicap `client.discover`, within max-age (cache)', run: counted('payments', () => fresh.discover(payments)) },
      { name: 'MCP second `listTools`, stateful session', run: counted('mcpStateful', () => statefulMcp.client.listTools()) },
      { name: 'MCP second `listTools`, stateless', run: counted('mcpStateless', () => statelessMcp.client.listTools()) },
    ];
    const rows = await compareVariants(variants, context.iterations);
    const after = await context.servers.counts();
    const requestsPerCall = Object.fromEntries(Object.entries(runs).map(([server, count]) => [server, (after[server] - before[server]) / count]));
    rows[0].requestsPerCall = requestsPerCall.revalidate;
    rows[1].requestsPerCall = requestsPerCall.payments;
    rows[2].requestsPerCall = requestsPerCall.mcpStateful;
    rows[3].requestsPerCall = requestsPerCall.mcpStateless;
    if (rows[0].requestsPerCall !== 1) throw new Error(`Revalidation sent ${rows[0].requestsPerCall} requests per discover; expected exactly 1 (a conditional GET).`);
    if (rows[1].requestsPerCall !== 0) throw new Error(`A discover within max-age sent ${rows[1].requestsPerCall} requests per call; expected 0.`);
    const [revalidated, , stateful, stateless] = rows;
    const fasterMcp = stateless.medianInMs <= stateful.medianInMs ? stateless : stateful;
    return { rows, ratio: { value: fasterMcp.medianInMs / revalidated.medianInMs, against: fasterMcp.name } };
  } finally {
    await Promise.all([stale.close(), fresh.close(), statefulMcp.close(), statelessMcp.close()]);
  }
}
