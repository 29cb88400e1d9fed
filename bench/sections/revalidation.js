// Refreshing what a connected agent already knows. aicap: `client.discover` again once the manifest
// is past max-age (a conditional GET answered 304 by a server sending `max-age=0`), and within
// max-age (answered from the client's cache: no request at all). Floor: the same conditional GET as a
// bare `undici.request` on a warm pool. MCP: a second `listTools` on a connected client in each of the
// four server modes (one POST each time; the protocol has no validators). Requests are counted on
// the servers, not inferred.
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH } from 'aicap';
import { createClient } from 'aicap/client';
import { clientOverFloor, compareVariants, cpuRatios, fastestOf, pairedRatio, spreadOf, withoutSamples } from '../lib/measure.js';
import { createMcpClient } from '../lib/mcp-client.js';
import { MCP_MODES } from '../lib/mcp-payments-app.js';

/**
 * @param {{
 *   revalidateOrigin: string, freshOrigin: string, mcpOrigins: Record<string, string>,
 *   clientOptions?: object, servers: { counts(): Promise<Record<string, number>> }, servedBy: { revalidate: string, fresh: string },
 *   iterations: { warmupIterations: number, iterations: number, minIterations?: number, maxTimeInMs: number },
 *   clientOverFloor?: boolean,
 * }} context
 */
export async function benchmarkRevalidation(context) {
  const stale = createClient(context.clientOptions ?? {});
  const fresh = createClient(context.clientOptions ?? {});
  const dispatcher = new Agent();
  const mcpClients = MCP_MODES.map((mode) => ({ mode, mcp: createMcpClient(`${context.mcpOrigins[mode.key]}/mcp`) }));
  await Promise.all([stale.discover(context.revalidateOrigin), fresh.discover(context.freshOrigin), ...mcpClients.map(({ mcp }) => mcp.connect())]);
  const manifestUrl = `${context.revalidateOrigin}${WELL_KNOWN_PATH}`;
  const first = await request(manifestUrl, { dispatcher, headers: { accept: MANIFEST_MEDIA_TYPE } });
  await first.body.text();
  const etag = first.headers.etag;
  if (typeof etag !== 'string') throw new Error(`${manifestUrl} sent no ETag.`);
  // After `connect` the MCP client opens its optional GET event stream in the background; let it
  // land before counting so it is not charged to `listTools`.
  await delay(200);
  try {
    const before = await context.servers.counts();
    const runs = { revalidate: 0, fresh: 0 };
    const variants = [
      {
        name: 'aicap `client.discover`, past max-age (304)',
        run: () => {
          runs.revalidate++;
          return stale.discover(context.revalidateOrigin);
        },
      },
      {
        name: 'floor: conditional `undici.request` (304, warm pool)',
        async run() {
          const answer = await request(manifestUrl, { dispatcher, headers: { accept: MANIFEST_MEDIA_TYPE, 'if-none-match': etag } });
          await answer.body.dump();
          return answer.statusCode;
        },
        check: (status) => {
          if (status !== 304) throw new Error(`The floor's conditional GET got ${status}, not 304.`);
        },
      },
      {
        name: 'aicap `client.discover`, within max-age (cache)',
        run: () => {
          runs.fresh++;
          return fresh.discover(context.freshOrigin);
        },
      },
      ...mcpClients.map(({ mode, mcp }) => ({ name: `MCP second \`listTools\`, ${mode.label}`, run: () => mcp.client.listTools() })),
    ];
    const rows = await compareVariants(variants, context.iterations);
    const after = await context.servers.counts();
    // The floor's requests (warm-up rounds included) also reach the revalidating server: count aicap's alone.
    const floorRequests = rows[1].iterations + context.iterations.warmupIterations;
    rows[0].requestsPerCall = (after[context.servedBy.revalidate] - before[context.servedBy.revalidate] - floorRequests) / runs.revalidate;
    if (rows[0].requestsPerCall !== 1) throw new Error(`Revalidation sent ${rows[0].requestsPerCall} requests per discover; expected exactly 1 (a conditional GET).`);
    rows[2].requestsPerCall = (after[context.servedBy.fresh] - before[context.servedBy.fresh]) / runs.fresh;
    if (rows[2].requestsPerCall !== 0) throw new Error(`A discover within max-age sent ${rows[2].requestsPerCall} requests per call; expected 0.`);
    const [revalidated, floor, cached, ...mcp] = rows;
    const fastestMcp = fastestOf(mcp);
    // The client µs target is Payments'; the big APIs' sections skip these rounds.
    const overFloor = context.clientOverFloor
      ? await clientOverFloor(variants[0], variants[1], context.iterations, 'client CPU of a 304 revalidation over the floor conditional GET, µs (difference of medians, in rounds of the two alone)')
      : undefined;
    return {
      rows: withoutSamples(rows),
      versusFloor: pairedRatio(revalidated.samples, floor.samples, floor.name),
      versusMcp: pairedRatio(fastestMcp.samples, revalidated.samples, fastestMcp.name),
      ...cpuRatios(revalidated, floor, fastestMcp),
      cacheHitInMs: spreadOf(cached.samples),
      ...(overFloor ? { overFloor } : {}),
    };
  } finally {
    await Promise.all([stale.close(), fresh.close(), dispatcher.close(), ...mcpClients.map(({ mcp }) => mcp.close())]);
  }
}
