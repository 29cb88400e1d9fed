// One orchestrator process of the fleet liveness test and bench: discovers the API, joins the Redis
// manifest invalidation, prints `ready`, and each time a change removes `toolId` calls it once and
// prints what happened as JSON (the time the call was refused, on the machine's shared clock); any
// other change prints the new digest.
// Bounded: exits after `lifetimeInMs` whatever happens (the parent normally stops it sooner).
import { createClient } from '../../dist/client/index.js';
import { connectRedis, createRedisManifestInvalidation } from '../../dist/redis/index.js';

const [origin, redisUrl, follow, toolId, lifetimeInMs = '60000'] = process.argv.slice(2);
setTimeout(() => process.exit(2), Number(lifetimeInMs));
// Start-up is not what is measured: a fleet starting together on two cores waits its turn for seconds.
const redis = await connectRedis({ url: redisUrl, prefix: 'fleet-liveness:', connectTimeoutInMs: 30_000 });
const client = createClient({ discovery: { changeFeed: follow === 'follow' ? {} : false } });
await client.discover(origin);
await createRedisManifestInvalidation({ redis, client });
client.on('change', (event) => {
  if (!event.removed.includes(toolId)) return void process.stdout.write(`${JSON.stringify({ digest: event.digest })}\n`);
  void client.call(toolId).then((envelope) => {
    const refusedAtInMs = performance.timeOrigin + performance.now();
    process.stdout.write(`${JSON.stringify({ refusedAtInMs, code: envelope.ok ? 'CALLED' : envelope.error.code })}\n`);
  });
});
process.stdout.write('ready\n');
