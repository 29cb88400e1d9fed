// One orchestrator process of the fleet liveness test and bench: discovers the API, joins the Redis
// manifest invalidation, prints `ready`, and when a change removes `toolId` calls it once and prints
// what happened as JSON (the time the call was refused, from the shared clock). Bounded: exits 2
// after `timeoutInMs`.
import { createClient } from '../../dist/client/index.js';
import { connectRedis, createRedisManifestInvalidation } from '../../dist/redis/index.js';

const [origin, redisUrl, follow, toolId, timeoutInMs = '30000'] = process.argv.slice(2);
const deadline = setTimeout(() => {
  process.stderr.write(`no removal of ${toolId} within ${timeoutInMs} ms\n`);
  process.exit(2);
}, Number(timeoutInMs));
const redis = await connectRedis({ url: redisUrl, prefix: 'fleet-liveness:' });
const client = createClient({ discovery: { changeFeed: follow === 'follow' ? {} : false } });
await client.discover(origin);
const invalidation = await createRedisManifestInvalidation({ redis, client });
client.on('change', (event) => {
  if (!event.removed.includes(toolId)) return;
  void (async () => {
    const envelope = await client.call(toolId);
    const refusedAtInMs = performance.timeOrigin + performance.now();
    process.stdout.write(`${JSON.stringify({ refusedAtInMs, code: envelope.ok ? 'CALLED' : envelope.error.code })}\n`);
    clearTimeout(deadline);
    await invalidation.close();
    await client.close();
    await redis.close();
  })();
});
process.stdout.write('ready\n');
