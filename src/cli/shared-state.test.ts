import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCliIo } from '../../test/helpers/run-built-cli.js';
import { freePort, HAS_REDIS_SERVER, REDIS_MISSING, startRedisServer, type RedisServer } from '../../test/helpers/start-redis-server.js';
import { MANIFEST_SIGNING_KEY_VARIABLE, openSharedState, REDIS_URL_VARIABLE, sessionUsage, type OpenSharedStateOptions } from './shared-state.js';

const SIGNING_KEY = 'k'.repeat(32);

/** Opens the shared state with `options` and the given environment only; returns the exit code or the state, and what was printed. */
async function open(environment: Record<string, string>, options: OpenSharedStateOptions = {}): Promise<{ state: Awaited<ReturnType<typeof openSharedState>>; err: string }> {
  const io = captureCliIo();
  const state = await openSharedState(io, { ...options, environment });
  return { state, err: io.err };
}

describe('openSharedState without AICAP_REDIS_URL', () => {
  it.each([[{}], [{ [REDIS_URL_VARIABLE]: '' }]])('keeps everything in this process (%j)', async (environment) => {
    const { state, err } = await open(environment, { session: 'ignored-without-redis', requireSession: true, cache: false });
    expect(err).toBe('');
    if (typeof state === 'number') throw new Error(`exit ${state}`);
    expect(state.shared).toBe(false);
    const client = state.createClient({});
    await client.close();
    await state.close();
  });

  it('refuses --pin (exit 2): a pin kept in memory ends with the process', async () => {
    const { state, err } = await open({}, { pin: true });
    expect(state).toBe(2);
    expect(err).toBe(`✘ The \`--pin\` option records the approval for other processes, in Redis: set \`${REDIS_URL_VARIABLE}\` (pins kept in memory end with this process).\n`);
  });
});

describe('openSharedState with AICAP_REDIS_URL (exit 2 before anything is sent)', () => {
  it.each([
    ['an http URL, its password hidden', 'http://user:hunter2@127.0.0.1:6379', /must be a redis:\/\/ or rediss:\/\/ URL such as redis:\/\/127\.0\.0\.1:6379, got http:\/\/127\.0\.0\.1:6379\/\.\n$/],
    ['no URL at all', 'localhost:6379', /must be a redis:\/\/ or rediss:\/\/ URL/],
    ['garbage', '\u001b[2J', /must be a redis:\/\/ or rediss:\/\/ URL/],
  ])('refuses %s', async (_case, url, expected) => {
    const { state, err } = await open({ [REDIS_URL_VARIABLE]: url });
    expect(state).toBe(2);
    expect(err).toMatch(expected);
    expect(err).not.toContain('hunter2');
    expect(err).not.toContain('\u001b');
  });

  it('asks for --session for a command that calls tools', async () => {
    const { state, err } = await open({ [REDIS_URL_VARIABLE]: 'redis://127.0.0.1:6379' }, { requireSession: true });
    expect(state).toBe(2);
    expect(err).toContain('name it with `--session <id>`');
  });

  it('says Redis is unreachable, where (without the password) and what to do', async () => {
    const port = await freePort();
    const { state, err } = await open({ [REDIS_URL_VARIABLE]: `redis://:hunter2@127.0.0.1:${port}` }, { session: 's' });
    expect(state).toBe(2);
    expect(err).toMatch(new RegExp(`(Redis at \`${REDIS_URL_VARIABLE}\` \\(redis://.*127\\.0\\.0\\.1:${port}.*\\) is unreachable|needs the optional \`redis\` package)`));
    expect(err).toContain(`Start redis-server there or correct ${REDIS_URL_VARIABLE}; unset it to keep the cache, budgets and pins in this process only.`);
    expect(err).not.toContain('hunter2');
  });
});

describe.skipIf(!HAS_REDIS_SERVER)(`openSharedState with a real Redis (${HAS_REDIS_SERVER ? 'redis-server' : REDIS_MISSING})`, () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis.stop());

  it('shares the state and closes the connection with the client', async () => {
    const { state, err } = await open({ [REDIS_URL_VARIABLE]: redis.url, [MANIFEST_SIGNING_KEY_VARIABLE]: SIGNING_KEY }, { session: 'fleet-1', requireSession: true, pin: true });
    expect(err).toBe('');
    if (typeof state === 'number') throw new Error(`exit ${state}`);
    expect(state.shared).toBe(true);
    const client = state.createClient({});
    await client.close();
    // Closing twice (the client, then the command) is harmless.
    await state.close();
  });

  it.each([
    ['one character short', 'k'.repeat(31), 31],
    ['a word', 'secret', 6],
  ])('refuses a signing key %s, saying how to make one', async (_case, key, length) => {
    const { state, err } = await open({ [REDIS_URL_VARIABLE]: redis.url, [MANIFEST_SIGNING_KEY_VARIABLE]: key }, { session: 's' });
    expect(state).toBe(2);
    expect(err).toContain(`\`${MANIFEST_SIGNING_KEY_VARIABLE}\` must be at least 32 characters (random, e.g. \`openssl rand -hex 32\`), got ${length};`);
    // The key itself is never printed.
    expect(err).not.toContain(key);
  });

  it('passes on the refusal of the client options (closing the connection it opened)', async () => {
    const { state } = await open({ [REDIS_URL_VARIABLE]: redis.url }, { session: 's' });
    if (typeof state === 'number') throw new Error(`exit ${state}`);
    expect(() => state.createClient({ network: { timeouts: { headersInMs: -1 } } })).toThrow();
    await state.close();
  });
});

describe('sessionUsage', () => {
  it('aligns the flag at the column and indents the rest under it', () => {
    const lines = sessionUsage(20).split('\n');
    expect(lines[0]).toBe(`  ${'--session <id>'.padEnd(20)}the session whose budget (max_actions_per_session) the calls count`);
    expect(lines.slice(1, 3).every((line) => line.startsWith(' '.repeat(22)) && line[22] !== ' ')).toBe(true);
  });
});
