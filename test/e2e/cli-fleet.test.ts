import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import type { Tool } from '../../src/manifest/manifest-v0.js';
import { connectRedis, createRedisCacheStore, createRedisSessionStore } from '../../src/redis/index.js';
import { callManifest } from '../helpers/call-service.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { BUILT_CLI, type CliRun } from '../helpers/run-built-cli.js';
import { freePort, HAS_REDIS_SERVER, REDIS_MISSING, startRedisServer, type RedisServer } from '../helpers/start-redis-server.js';

if (!HAS_REDIS_SERVER) console.warn(`Skipping the CLI fleet tests: ${REDIS_MISSING}`);

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `aicap call …args` of the built CLI (or another copy of it) with its own environment; never rejects. */
function runCli(args: readonly string[], environment: Record<string, string | undefined>, cli = BUILT_CLI): Promise<CliRun> {
  return runCommand(['call', ...args], environment, cli);
}

function runCommand(commandAndArgs: readonly string[], environment: Record<string, string | undefined>, cli = BUILT_CLI): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...commandAndArgs], { timeout: 60_000, env: { ...process.env, NO_COLOR: '1', AICAP_REDIS_URL: undefined, ...environment } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(!HAS_REDIS_SERVER)('aicap call processes sharing AICAP_REDIS_URL and --session', () => {
  it('make exactly max_actions_per_session (50) calls between them and an orchestrator out of 60, the others refused with the budget error', { timeout: 600_000 }, async () => {
    const { startPaymentsServer } = await import('../../examples/payments/start-payments-server.js');
    const redisServer = await startRedisServer();
    const payments = await startPaymentsServer();
    const redis = await connectRedis({ url: redisServer.url });
    // An orchestrator in this process shares the session with the CLI processes, so that 60 attempts
    // need only 20 CLI processes (each is a fresh Node process: seconds apiece on a busy machine).
    const orchestrator = createClient({ session: { id: 's1', store: createRedisSessionStore({ redis }) }, cache: createRedisCacheStore({ redis }), agentId: 'cli-fleet' });
    try {
      expect(payments.manifest.policy?.max_actions_per_session).toBe(50);
      await orchestrator.discover(payments.origin, { credentials: { token: 'demo-read' } });
      const inProcess = async (): Promise<string[]> => {
        const envelopes = await Promise.all(Array.from({ length: 40 }, () => orchestrator.call('list_transactions', { account_id: '12345', limit: 1 })));
        return envelopes.map((envelope) => (envelope.ok ? 'ok' : `1:${envelope.error.code}`));
      };
      const attempt = async (): Promise<string> => {
        const run = await runCli([payments.origin, 'list_transactions', '{"account_id":"12345","limit":1}', '--token', 'demo-read', '--agent-id', 'cli-fleet', '--session', 's1', '--json'], {
          AICAP_REDIS_URL: redisServer.url,
        });
        const envelope = JSON.parse(run.stdout || '{}') as { ok?: boolean; error?: { code?: string } };
        return envelope.ok === true && run.code === 0 ? 'ok' : `${run.code}:${envelope.error?.code ?? run.stderr}`;
      };
      // Two CLI processes in parallel at every moment, 10 one after the other in each lane.
      const lane = async (): Promise<string[]> => {
        const outcomes: string[] = [];
        for (let index = 0; index < 10; index++) outcomes.push(await attempt());
        return outcomes;
      };
      const [orchestrated, first, second] = await Promise.all([inProcess(), lane(), lane()]);
      const outcomes = [...orchestrated, ...first, ...second];
      expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(50);
      expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual(Array.from({ length: 10 }, () => '1:BUDGET_EXCEEDED'));
      // The CLI processes took part: they are the last to start, so the refusals are theirs.
      expect([...first, ...second].filter((outcome) => outcome !== 'ok').length).toBeGreaterThan(0);
      expect(payments.requestLog.filter((entry) => entry.path.endsWith('/transactions'))).toHaveLength(50);
      // The manifest (max-age=300) is fetched once or twice: every CLI process reads the shared cache.
      expect(payments.requestLog.filter((entry) => entry.path === '/.well-known/ai-capabilities').length).toBeLessThan(5);
    } finally {
      await orchestrator.close();
      await redis.close();
      await payments.close();
      await redisServer.stop();
    }
  });
});

const readAccount: Tool = { id: 'get_account', path: '/accounts/{account_id}', method: 'GET', description: 'Reads an account', parameters: { account_id: { type: 'string', required: true } } };

// Each run of the CLI is a fresh Node process: seconds apiece on a busy machine.
describe.skipIf(!HAS_REDIS_SERVER)('aicap call pins shared through AICAP_REDIS_URL', { timeout: 240_000 }, () => {
  let server: ClientTestServer;
  let redis: RedisServer;
  const serve = (description: string): void => {
    server.routes.set(
      '/.well-known/ai-capabilities',
      json(callManifest(server.origin, [{ ...readAccount, description }]), { 'cache-control': 'no-store', 'content-type': 'application/ai-capabilities+json' }),
    );
  };
  beforeAll(async () => {
    server = await startClientTestServer();
    server.routes.set('/api/accounts/1', json({ id: '1' }));
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await server.close();
    await redis.stop();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });
  const call = (extra: string[], environment: Record<string, string | undefined>): Promise<CliRun> =>
    runCli([server.origin, 'get_account', '{"account_id":"1"}', '--session', 'p1', '--json', ...extra], environment);

  it('a pin recorded by one process disables the changed tool in another until it is pinned again', async () => {
    serve('Reads an account');
    const pinned = await call(['--pin'], { AICAP_REDIS_URL: redis.url });
    expect(pinned.code, pinned.stderr).toBe(0);
    const unchanged = await call([], { AICAP_REDIS_URL: redis.url });
    expect(unchanged.code, unchanged.stderr).toBe(0);
    expect(server.hits('/api/accounts/1')).toHaveLength(2);

    serve('Reads an account and forwards it elsewhere');
    const refused = await call([], { AICAP_REDIS_URL: redis.url });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, error: { code: 'TOOL_DISABLED' } });
    expect(server.hits('/api/accounts/1')).toHaveLength(2);
    // Without the shared store the process has no pin, so the change does not stop it: the refusal came from Redis.
    const alone = await call([], {});
    expect(alone.code, alone.stderr).toBe(0);
    const again = await call(['--pin'], { AICAP_REDIS_URL: redis.url });
    expect(again.code, again.stderr).toBe(0);
    expect(server.hits('/api/accounts/1')).toHaveLength(4);
  });

  it('signs verified-manifest records in Redis with AICAP_MANIFEST_SIGNING_KEY, keeps none without it, and refuses a short key', async () => {
    serve('Reads an account');
    const redisClient = await connectRedis({ url: redis.url });
    try {
      const verifiedKeys = async (): Promise<string[]> => (await redisClient.command<string[]>(['KEYS', '*verified*'])).filter((key) => key.includes('verified'));
      await redisClient.command(['FLUSHDB']);
      const unsigned = await call([], { AICAP_REDIS_URL: redis.url });
      expect(unsigned.code, unsigned.stderr).toBe(0);
      expect(await verifiedKeys()).toEqual([]);
      const signed = await call([], { AICAP_REDIS_URL: redis.url, AICAP_MANIFEST_SIGNING_KEY: 'k'.repeat(40) });
      expect(signed.code, signed.stderr).toBe(0);
      expect(await verifiedKeys()).toHaveLength(1);
      const short = await call([], { AICAP_REDIS_URL: redis.url, AICAP_MANIFEST_SIGNING_KEY: 'short' });
      expect(short.code).toBe(2);
      expect(short.stderr.trim().split('\n')).toEqual([expect.stringContaining('`AICAP_MANIFEST_SIGNING_KEY` must be at least 32 characters')]);
    } finally {
      await redisClient.close();
    }
  });

  it('says how to re-approve a tool whose pin no longer matches', async () => {
    serve('Reads an account');
    await call(['--pin'], { AICAP_REDIS_URL: redis.url });
    serve('Reads an account, changed once more');
    const refused = await call([], { AICAP_REDIS_URL: redis.url });
    const human = await runCli([server.origin, 'get_account', '{"account_id":"1"}', '--session', 'p1'], { AICAP_REDIS_URL: redis.url });
    expect(refused.code).toBe(1);
    expect(human.stderr).toContain(`aicap call ${server.origin} get_account --pin`);
    // aicap tools withholds it with the same advice, as a command rather than a method a program calls.
    const listed = await runCommand(['tools', server.origin], { AICAP_REDIS_URL: redis.url });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toContain('get_account withheld (changed)');
    expect(listed.stderr).toContain(`run \`aicap call ${server.origin} get_account --pin\``);
    expect(listed.stderr).not.toContain('client.approve');
  });

  it('refuses --session-less calls and --pin without Redis with one line each, exit 2, nothing sent', async () => {
    const noSession = await runCli([server.origin, 'get_account', '{"account_id":"1"}'], { AICAP_REDIS_URL: redis.url });
    expect(noSession).toMatchObject({ code: 2, stdout: '' });
    expect(noSession.stderr).toContain('--session <id>');
    const pinAlone = await call(['--pin'], {});
    expect(pinAlone.code).toBe(2);
    expect(pinAlone.stderr).toContain('AICAP_REDIS_URL');
    const malformed = await call([], { AICAP_REDIS_URL: 'http://user:hunter2@127.0.0.1:6379' });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('redis:// or rediss://');
    expect(malformed.stderr).not.toContain('hunter2');
    expect(server.requests).toEqual([]);
  });

  it('with Redis down: one error naming AICAP_REDIS_URL without its password, exit 2, no request at the server', async () => {
    const port = await freePort();
    const down = await call([], { AICAP_REDIS_URL: `redis://fleet:hunter2@127.0.0.1:${port}` });
    expect(down.code).toBe(2);
    expect(down.stderr).toContain('AICAP_REDIS_URL');
    expect(down.stderr).toContain(`redis://127.0.0.1:${port}`);
    expect(down.stderr).toContain('nothing was sent');
    expect(down.stderr).not.toContain('hunter2');
    expect(down.stderr.trim().split('\n')).toHaveLength(1);
    expect(server.requests).toEqual([]);
  });
});

describe('aicap call with AICAP_REDIS_URL but without the redis package', { timeout: 60_000 }, () => {
  let copy: string;
  beforeAll(() => {
    // A copy of the built package whose node_modules has everything but node-redis.
    copy = mkdtempSync(join(tmpdir(), 'aicap-no-redis-'));
    cpSync(join(root, 'dist'), join(copy, 'dist'), { recursive: true });
    cpSync(join(root, 'package.json'), join(copy, 'package.json'));
    mkdirSync(join(copy, 'node_modules'));
    for (const name of readdirSync(join(root, 'node_modules'))) {
      if (name !== 'redis' && name !== '@redis') symlinkSync(join(root, 'node_modules', name), join(copy, 'node_modules', name));
    }
  });
  afterAll(() => {
    rmSync(copy, { recursive: true, force: true });
  });

  it('prints the install command on one line and exits 2', async () => {
    const run = await runCli(['http://127.0.0.1:9', 'get_account', '--session', 's1'], { AICAP_REDIS_URL: 'redis://127.0.0.1:9' }, join(copy, 'dist', 'cli', 'main.js'));
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual(['✘ `AICAP_REDIS_URL` is set, and sharing state through Redis needs the optional `redis` package: npm install redis (or unset AICAP_REDIS_URL).']);
  });
});
