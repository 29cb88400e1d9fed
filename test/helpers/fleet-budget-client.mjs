// One orchestrator process of the fleet budget test: discovers the API, then makes `count` calls of
// list_transactions in the session `sessionId`, whose budget lives in Redis. Prints what happened as JSON.
import { createClient } from '../../dist/client/index.js';
import { connectRedis, createRedisSessionStore } from '../../dist/redis/index.js';

const [origin, redisUrl, sessionId, count] = process.argv.slice(2);
const redis = await connectRedis({ url: redisUrl });
const client = createClient({ cache: false, agentId: `budget-${process.pid}`, session: { id: sessionId, store: createRedisSessionStore({ redis }) } });
await client.discover(origin, { credentials: { token: 'demo-read' } });
const outcomes = { ok: 0, refused: 0, other: [] };
// Two at a time, so both processes race on the counter throughout.
for (let index = 0; index < Number(count); index += 2) {
  const results = await Promise.all([0, 1].map(() => client.call('list_transactions', { account_id: '12345', limit: 1 })));
  for (const result of results) {
    if (result.ok) outcomes.ok++;
    else if (result.error?.code === 'BUDGET_EXCEEDED') outcomes.refused++;
    else outcomes.other.push(result.error?.code);
  }
}
await client.close();
await redis.close();
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
