import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import { createEncryptedFileTokenStore, defaultTokenFilePath, TokenFileError } from './create-encrypted-file-token-store.js';
import type { TokenSet } from '../shapes/token-store.js';

const key = { user: 'default', resource: 'https://api.example.com' };
const tokens = (accessToken: string, scopes: string[] = ['payments:read']): TokenSet => ({
  accessToken,
  refreshToken: `refresh-${accessToken}`,
  expiresAtInMs: 1_900_000_000_000,
  scopes,
  issuer: 'https://idp.example.com',
  clientId: 'aicap-cli',
});

describe('createEncryptedFileTokenStore', () => {
  let folder: string;
  let filePath: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'aicap-token-store-'));
    filePath = join(folder, 'nested', 'tokens');
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('keeps token sets across store instances, one per scope set, replacing the same scopes in any order', async () => {
    const store = createEncryptedFileTokenStore({ filePath, environment: {} });
    await store.put(key, tokens('first', ['a', 'b']));
    await store.put(key, tokens('other', ['c']));
    await store.put(key, tokens('second', ['b', 'a']));
    const again = createEncryptedFileTokenStore({ filePath, environment: {} });
    expect((await again.get(key)).map((set) => set.accessToken).sort()).toEqual(['other', 'second']);
    expect(await again.get({ ...key, resource: 'https://other.example.com' })).toEqual([]);
    expect(await again.get({ ...key, user: 'someone-else' })).toEqual([]);
  });

  it('deletes one scope set, or every set of a key', async () => {
    const store = createEncryptedFileTokenStore({ filePath, environment: {} });
    await store.put(key, tokens('read', ['r']));
    await store.put(key, tokens('write', ['w']));
    await store.delete(key, ['r']);
    expect((await store.get(key)).map((set) => set.accessToken)).toEqual(['write']);
    await store.delete(key);
    expect(await store.get(key)).toEqual([]);
  });

  it('never writes a token in clear text, and writes the file and its key file with mode 0600', async () => {
    const store = createEncryptedFileTokenStore({ filePath, environment: {} });
    await store.put(key, tokens('secret-access-token-value'));
    const text = await readFile(filePath, 'utf8');
    expect(text).not.toContain('secret-access-token-value');
    expect(text).not.toContain('refresh-secret');
    expect(text).not.toContain('api.example.com');
    if (process.platform !== 'win32') {
      expect((await stat(filePath)).mode & 0o777).toBe(0o600);
      expect((await stat(`${filePath}.key`)).mode & 0o777).toBe(0o600);
    }
  });

  it('uses AICAP_TOKEN_FILE and AICAP_TOKEN_KEY, writing no key file, and refuses the file under another key', async () => {
    const environment = { AICAP_TOKEN_FILE: filePath, AICAP_TOKEN_KEY: 'a'.repeat(64) };
    const store = createEncryptedFileTokenStore({ environment });
    expect(store.filePath).toBe(filePath);
    await store.put(key, tokens('t'));
    await expect(stat(`${filePath}.key`)).rejects.toMatchObject({ code: 'ENOENT' });
    const otherKey = createEncryptedFileTokenStore({ environment: { ...environment, AICAP_TOKEN_KEY: 'b'.repeat(64) } });
    const error = await errorOf(otherKey.get(key));
    expect(TokenFileError.isInstance(error)).toBe(true);
    expect(error.message).toContain('written with another key');
  });

  it('refuses a key that is not 256 bits when the store is created, naming where it came from', () => {
    expect(() => createEncryptedFileTokenStore({ filePath, environment: { AICAP_TOKEN_KEY: 'hunter2' } })).toThrow(/`AICAP_TOKEN_KEY` must hold a 256-bit key/);
    expect(() => createEncryptedFileTokenStore({ filePath, key: 'abc' })).toThrow(/The `key` option must hold/);
  });

  it('refuses a tampered file with a TokenFileError that names the file and says to delete it and log in again', async () => {
    const store = createEncryptedFileTokenStore({ filePath, environment: {} });
    await store.put(key, tokens('t'));
    const envelope = JSON.parse(await readFile(filePath, 'utf8')) as { ciphertext: string };
    const bytes = Buffer.from(envelope.ciphertext, 'base64');
    bytes[0] = bytes[0]! ^ 1;
    await writeFile(filePath, JSON.stringify({ ...envelope, ciphertext: bytes.toString('base64') }));
    const error = await errorOf(store.get(key));
    expect(error).toBeInstanceOf(TokenFileError);
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.message).toContain(filePath);
    expect(error.message).toContain('aicap login');
    expect(error.message).toContain(`rm ${filePath}`);
    // A write does not silently replace the tampered file either.
    await expect(store.put(key, tokens('u'))).rejects.toBeInstanceOf(TokenFileError);
  });

  it('refuses a file that is not a token file, and one whose key file is gone', async () => {
    const store = createEncryptedFileTokenStore({ filePath, environment: {} });
    await store.put(key, tokens('t'));
    await rm(`${filePath}.key`);
    expect((await errorOf(store.get(key))).message).toMatch(/key file .* is missing/);
    await writeFile(filePath, 'not json');
    expect((await errorOf(store.get(key))).message).toContain('not an aicap token file');
  });

  it('loses no write when many writes of one process overlap', async () => {
    const store = createEncryptedFileTokenStore({ filePath, environment: {} });
    await Promise.all(Array.from({ length: 20 }, (_, index) => store.put({ ...key, resource: `https://api${index}.example.com` }, tokens(`t${index}`))));
    for (let index = 0; index < 20; index++) expect((await store.get({ ...key, resource: `https://api${index}.example.com` }))[0]?.accessToken).toBe(`t${index}`);
  });

  it('loses no write when two stores on one file write at once, as two processes do (the lock file orders them)', async () => {
    // Each store has its own in-process queue, so only the lock file keeps their read-change-write cycles apart.
    const environment = { AICAP_TOKEN_KEY: 'c'.repeat(64) };
    const writers = ['left', 'right'].map((name) => {
      const store = createEncryptedFileTokenStore({ filePath, environment });
      return Array.from({ length: 15 }, (_, index) => store.put({ ...key, resource: `https://${name}${index}.example.com` }, tokens(`${name}${index}`)));
    });
    await Promise.all(writers.flat());
    const store = createEncryptedFileTokenStore({ filePath, environment });
    for (const name of ['left', 'right']) {
      for (let index = 0; index < 15; index++) expect((await store.get({ ...key, resource: `https://${name}${index}.example.com` }))[0]?.accessToken).toBe(`${name}${index}`);
    }
  });

  it('removes a stale lock left by a crashed process, and times out on a live one with a message naming the lock file', async () => {
    const store = createEncryptedFileTokenStore({ filePath, environment: {}, lockTimeoutInMs: 100, staleLockAfterInMs: 60_000 });
    await store.put(key, tokens('t'));
    await writeFile(`${filePath}.lock`, '999999');
    const error = await errorOf(store.put(key, tokens('u')));
    expect(error.message).toContain(`${filePath}.lock`);
    const patient = createEncryptedFileTokenStore({ filePath, environment: {}, staleLockAfterInMs: 0 });
    await patient.put(key, tokens('u'));
    expect((await patient.get(key))[0]?.accessToken).toBe('u');
  });

  it('runs one refresh at a time across stores on one file (withRefreshLock), and releases the lock when a refresh fails', async () => {
    const stores = [createEncryptedFileTokenStore({ filePath, environment: {} }), createEncryptedFileTokenStore({ filePath, environment: {} })];
    const events: string[] = [];
    const refresh = (name: string) => async () => {
      events.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 30));
      events.push(`end ${name}`);
      return name;
    };
    expect(await Promise.all([stores[0]!.withRefreshLock!(key, refresh('a')), stores[1]!.withRefreshLock!(key, refresh('b'))])).toEqual(['a', 'b']);
    // Either may win the lock; the other starts only after the winner ended.
    expect([
      ['start a', 'end a', 'start b', 'end b'],
      ['start b', 'end b', 'start a', 'end a'],
    ]).toContainEqual(events);
    await expect(stores[0]!.withRefreshLock!(key, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await stores[1]!.withRefreshLock!(key, async () => 'after')).toBe('after');
  });

  it('keeps client registrations beside the tokens, and lists every key with its token sets', async () => {
    const store = createEncryptedFileTokenStore({ filePath, environment: {} });
    const registration = { clientId: 'dynamic-1', method: 'dynamic-registration' as const, redirectUris: ['http://127.0.0.1/callback'] };
    await store.registrations.put('https://idp.example.com', registration);
    await store.put(key, tokens('t'));
    const again = createEncryptedFileTokenStore({ filePath, environment: {} });
    const device = { clientId: 'dynamic-2', method: 'dynamic-registration' as const, grantTypes: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'] };
    await again.registrations.put('https://idp.example.com', device);
    expect(await again.registrations.list('https://idp.example.com')).toEqual([registration, device]);
    expect(await again.registrations.list('https://other.example.com')).toEqual([]);
    expect(await again.entries()).toEqual([{ key, tokens: [tokens('t')] }]);
  });
});

describe('defaultTokenFilePath', () => {
  it('prefers AICAP_TOKEN_FILE, then XDG_CONFIG_HOME, then ~/.config', () => {
    expect(defaultTokenFilePath({ AICAP_TOKEN_FILE: '/x/tokens', XDG_CONFIG_HOME: '/config' })).toBe('/x/tokens');
    expect(defaultTokenFilePath({ XDG_CONFIG_HOME: '/config' })).toBe(join('/config', 'aicap', 'tokens'));
    expect(defaultTokenFilePath({})).toMatch(/\.config[/\\]aicap[/\\]tokens$/);
  });
});
