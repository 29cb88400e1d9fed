/**
 * `npm run example`: starts the Payments API and prints its origin as the first line of stdout.
 * `PORT` picks the port (default 3000; `0` picks a free one). For a fleet of replicas behind a load
 * balancer, `PUBLIC_URL` is the origin clients reach (used for `base_url` and every link the API
 * hands out) and `REDIS_URL` a Redis shared by the replicas, where the report jobs live, so any
 * replica follows, replays and answers any job. `JOB_LEASE_IN_MS` (with `REDIS_URL`; default 10000) is how
 * long a replica's claim on a running job lasts unrenewed: a job whose replica died ends `worker_lost`
 * within 1.5 × that.
 * @module
 */

import type { JobEventStore } from 'aicap/server';
import { DEMO_USERS, PAYMENTS_TOKENS, startPaymentsServer } from './start-payments-server.js';

const fail = (message: string, code: number): never => {
  process.stderr.write(`✘ ${message}\n`);
  process.exit(code);
};

const port = process.env['PORT'] === undefined || process.env['PORT'] === '' ? 3000 : Number(process.env['PORT']);
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(process.env['PORT'])}.`, 2);
const publicUrl = process.env['PUBLIC_URL'] || undefined;
const protocolOf = (url: string): string => {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
};
if (publicUrl !== undefined && !/^https?:$/.test(protocolOf(publicUrl))) fail(`PUBLIC_URL must be an absolute http(s) URL such as https://payments.example.com, got ${JSON.stringify(publicUrl)}.`, 2);
const redisUrl = process.env['REDIS_URL'] || undefined;
const leaseText = process.env['JOB_LEASE_IN_MS'] || undefined;
const leaseInMs = leaseText === undefined ? undefined : Number(leaseText);
if (leaseInMs !== undefined && (!Number.isInteger(leaseInMs) || leaseInMs < 100)) fail(`JOB_LEASE_IN_MS must be an integer of at least 100 (milliseconds), got ${JSON.stringify(leaseText)}.`, 2);

let closeRedis = async (): Promise<void> => undefined;
let jobStore: JobEventStore | undefined;
if (redisUrl !== undefined) {
  const { connectRedis, createRedisJobEventStore } = await import('aicap/redis');
  const redis = await connectRedis({ url: redisUrl }).catch((error: unknown) => fail(`REDIS_URL: ${(error as Error).message}`, 1));
  const store = createRedisJobEventStore({ redis, ...(leaseInMs === undefined ? {} : { leaseInMs }) });
  jobStore = store;
  closeRedis = async () => {
    await store.close();
    await redis.close();
  };
}

const payments = await startPaymentsServer({ port, ...(publicUrl === undefined ? {} : { publicUrl }), ...(jobStore === undefined ? {} : { jobStore }) }).catch((error: unknown) => {
  const reason = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${port} is in use; set PORT to another port or 0` : String((error as Error).message);
  return fail(`The Payments API could not start on 127.0.0.1: ${reason}.`, 1);
});
// Installed before the origin is printed: whoever reads the origin may stop the server right away.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(
    signal,
    () =>
      void payments
        .close()
        .then(closeRedis)
        .then(() => process.exit(0)),
  );
}
process.stdout.write(`${payments.origin}\n`);
process.stderr.write(
  `Payments API listening${payments.publicOrigin === payments.origin ? '' : ` (clients reach it as ${payments.publicOrigin})`}${redisUrl === undefined ? '' : ', jobs in Redis'}. Manifest: ${payments.manifestUrl}\nTokens: ${Object.entries(
    PAYMENTS_TOKENS,
  )
    .map(([token, scopes]) => `${token} (${scopes.join(', ')})`)
    .join(', ')}; send X-Agent-ID on every call. Ctrl-C stops.\n`,
);
process.stderr.write(
  payments.userAuthorization
    ? `Users sign in at ${payments.publicOrigin}/oauth/authorize (authorization code + PKCE, device flow; ${Object.keys(DEMO_USERS).join(', ')}; see examples/payments/README.md).\n`
    : '⚠ oidc-provider is not installed: OAuth serves the client_credentials grant only (no user sign-in); `npm install oidc-provider` adds it.\n',
);
