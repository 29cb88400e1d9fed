// Liveness: how long after a tool is removed on the producer an agent stops calling it (removal →
// first refused call), per round, against an MCP server removing a tool from a connected client (the
// SDK sends `notifications/tools/list_changed`, the host lists the tools again). Variants:
// - one process following the change feed (in this process, the producer too);
// - a fleet of processes over Redis: one follows the feed, the others hear the digest on Redis pub/sub
//   (the time of the last process to refuse);
// - `aicap mcp` over stdio: the host receives `list_changed` and lists the tools again;
// - baseline: an MCP SDK `McpServer` connected to an SDK `Client` over the in-memory transport, the
//   fastest mode MCP has (no process boundary, no HTTP), `tool.remove()` → `list_changed` → re-list.
// Each round removes the tool and puts it back; variants run in turn within a round, so load from
// elsewhere hits each alike; every ratio is taken pair by pair against the baseline.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from 'aicap/client';
import { createChangeFeedHandler, createManifestHandler, toNodeListener } from 'aicap/server';
import { HAS_REDIS_SERVER, startRedis, stopChild } from '../soak/start-soak-fleet.js';
import { pairedRatio, summarize, withoutSamples } from '../lib/measure.js';

const FLEET_SCRIPT = fileURLToPath(new URL('../../test/helpers/fleet-liveness-client.mjs', import.meta.url));
const BUILT_CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const ROUND_TIMEOUT_IN_MS = 10_000;

/** The producer: a manifest of `read_a` and `refund`, its change feed, and 200 on every other path. */
async function startProducer() {
  const made = {};
  const server = createServer((request, response) => made.listener(request, response));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const manifestOf = (toolIds) => ({
    schema_version: '0.3.0',
    service: { name: 'Liveness', base_url: origin },
    change_feed: { path: '/.well-known/ai-capabilities/changes', heartbeat_interval_seconds: 15 },
    tools: toolIds.map((id) => ({ id, method: 'GET', path: `/${id}`, description: `Reads ${id}.` })),
  });
  const manifestHandler = createManifestHandler({ manifest: manifestOf(['read_a', 'refund']) });
  const feed = createChangeFeedHandler({ manifestHandler });
  const route = (request) => {
    const path = new URL(request.url).pathname;
    if (path === manifestHandler.path) return manifestHandler(request);
    if (path === feed.path) return feed(request);
    return Response.json({ ok: true });
  };
  made.listener = toNodeListener(route);
  await manifestHandler.ready;
  return {
    origin,
    feed,
    remove: () => manifestHandler.update(manifestOf(['read_a'])),
    restore: () => manifestHandler.update(manifestOf(['read_a', 'refund'])),
    close: () => new Promise((resolve) => (feed.close(), server.closeAllConnections(), server.close(resolve))),
  };
}

function within(promise, what, timeoutInMs = ROUND_TIMEOUT_IN_MS) {
  let timer;
  return Promise.race([promise, new Promise((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${timeoutInMs} ms`)), timeoutInMs)))]).finally(() =>
    clearTimeout(timer),
  );
}

async function until(condition, what) {
  const deadline = Date.now() + ROUND_TIMEOUT_IN_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** One process following the feed: resolves with the time the removed tool's call was refused. */
async function startSingle(producer) {
  const client = createClient();
  await client.discover(producer.origin);
  return {
    removal() {
      return new Promise((resolve, reject) => {
        const off = client.on('change', (event) => {
          if (!event.removed.includes('refund')) return;
          off();
          void client.call('refund').then((envelope) => (envelope.ok ? reject(new Error('the removed tool was called')) : resolve(performance.timeOrigin + performance.now())), reject);
        });
      });
    },
    close: () => client.close(),
  };
}

/** `processes` orchestrator processes over Redis: resolves with the time the last one refused. */
async function startFleet(producer, redisUrl, processes) {
  const members = [];
  for (let index = 0; index < processes; index++) {
    const child = spawn(process.execPath, [FLEET_SCRIPT, producer.origin, redisUrl, index === 0 ? 'follow' : 'redis', 'refund', '600000'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const member = { child, waiters: [], ready: undefined };
    member.ready = new Promise((resolve) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line === 'ready') return resolve();
        const report = JSON.parse(line);
        // Other changes (the restores) print their digest; only removals are timed.
        if (report.digest !== undefined) return;
        if (report.code !== 'TOOL_REVOKED') throw new Error(`fleet process ${child.pid} got ${report.code} calling the removed tool`);
        member.waiters.shift()?.(report.refusedAtInMs);
      });
    });
    members.push(member);
  }
  const close = () => Promise.all(members.map((member) => stopChild(member.child, () => member.child.kill('SIGTERM'))));
  try {
    // Start-up is not what is measured; on two loaded cores a Node process takes seconds to start.
    await within(Promise.all(members.map((member) => member.ready)), `starting ${processes} fleet processes`, 30_000 + processes * 5000);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    removal: () => Promise.all(members.map((member) => new Promise((resolve) => member.waiters.push(resolve)))).then((times) => Math.max(...times)),
    close,
  };
}

/** `aicap mcp` over stdio with an SDK host: resolves when the host has the new list without the tool. */
async function startBridge(producer) {
  const host = new Client({ name: 'aicap-bench-host', version: '1.0.0' });
  await host.connect(new StdioClientTransport({ command: process.execPath, args: [BUILT_CLI, 'mcp', producer.origin], stderr: 'ignore' }));
  let waiter;
  host.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    const { tools } = await host.listTools();
    if (!tools.some((tool) => tool.name === 'refund')) waiter?.(performance.timeOrigin + performance.now());
  });
  return {
    removal: () => new Promise((resolve) => (waiter = resolve)),
    close: () => host.close(),
  };
}

/** The baseline: an MCP SDK server removing a tool from a connected SDK client (in-memory transport). */
async function startMcpBaseline() {
  const server = new McpServer({ name: 'baseline', version: '1.0.0' });
  const register = () => server.registerTool('refund', { description: 'Reads refund.' }, () => ({ content: [{ type: 'text', text: '{}' }] }));
  server.registerTool('read_a', { description: 'Reads read_a.' }, () => ({ content: [{ type: 'text', text: '{}' }] }));
  let tool = register();
  const host = new Client({ name: 'aicap-bench-host', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), host.connect(clientTransport)]);
  let waiter;
  host.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    const { tools } = await host.listTools();
    if (!tools.some((entry) => entry.name === 'refund')) waiter?.(performance.timeOrigin + performance.now());
  });
  return {
    async round() {
      const seen = new Promise((resolve) => (waiter = resolve));
      const removedAt = performance.timeOrigin + performance.now();
      tool.remove();
      const delay = (await within(seen, 'the MCP baseline')) - removedAt;
      tool = register();
      return delay;
    },
    close: () => Promise.all([host.close(), server.close()]),
  };
}

/**
 * @param {{ rounds: number, fleetProcesses: number }} settings
 */
export async function benchmarkLiveness(settings) {
  const producer = await startProducer();
  const redis = HAS_REDIS_SERVER ? await startRedis() : undefined;
  const variants = [];
  const baseline = await startMcpBaseline();
  try {
    variants.push({ name: 'aicap client following the change feed (1 process)', follower: await startSingle(producer), subscribers: 1 });
    if (redis)
      variants.push({
        name: `aicap fleet of ${settings.fleetProcesses} processes over Redis (last to refuse)`,
        follower: await startFleet(producer, redis.url, settings.fleetProcesses),
        subscribers: 1,
      });
    variants.push({ name: '`aicap mcp` over stdio: host sees list_changed and re-lists', follower: await startBridge(producer), subscribers: 1 });
    const expected = variants.reduce((sum, variant) => sum + variant.subscribers, 0);
    await until(() => producer.feed.subscriberCount === expected, `${expected} feed subscribers`);
    const samples = new Map([...variants.map((variant) => [variant.name, []]), ['baseline', []]]);
    // Round 0 is an untimed warm-up: the processes' first revalidation compiles what later ones reuse.
    for (let round = 0; round <= settings.rounds; round++) {
      // Every aicap variant hears the same removal; the baseline's removal runs right after, in the same round.
      const waits = variants.map((variant) => variant.follower.removal());
      const removedAt = performance.timeOrigin + performance.now();
      await producer.remove();
      const times = await within(Promise.all(waits), `round ${round}`);
      const baselineDelay = await baseline.round();
      if (round > 0) {
        variants.forEach((variant, index) => samples.get(variant.name).push(times[index] - removedAt));
        samples.get('baseline').push(baselineDelay);
      }
      await producer.restore();
      // Let every process take the restored manifest before the next removal.
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const baselineName = 'MCP SDK server → connected client (in-memory): list_changed and re-list';
    const rows = [...variants.map((variant) => summarize(variant.name, samples.get(variant.name))), summarize(baselineName, samples.get('baseline'))];
    return {
      rounds: settings.rounds,
      fleetProcesses: redis ? settings.fleetProcesses : 0,
      ...(redis ? {} : { skipped: 'the fleet variant: redis-server is not on PATH (apt-get install -y redis-server)' }),
      rows: withoutSamples(rows),
      versusMcp: Object.fromEntries(variants.map((variant) => [variant.name, pairedRatio(samples.get(variant.name), samples.get('baseline'), baselineName)])),
    };
  } finally {
    for (const variant of variants) await variant.follower.close().catch(() => undefined);
    await baseline.close();
    await producer.close();
    if (redis) await stopChild(redis.child, () => redis.child.kill('SIGTERM'));
  }
}

// `node bench/sections/liveness.js [rounds] [fleetProcesses]` runs this section alone and prints its results.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [rounds = '10', fleetProcesses = '10'] = process.argv.slice(2);
  const results = await benchmarkLiveness({ rounds: Number(rounds), fleetProcesses: Number(fleetProcesses) });
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
}
