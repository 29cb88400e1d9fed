import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCliIo } from '../../test/helpers/run-built-cli.js';
import { CACHE_DIRECTORY_VARIABLE, cacheDirectoryOf, cacheStoreOfFlags, cacheUsage } from './cli-cache.js';

describe('cacheDirectoryOf', () => {
  it.each([
    ['--cache-dir first', '/flag', { [CACHE_DIRECTORY_VARIABLE]: '/env', XDG_CACHE_HOME: '/xdg' }, 'linux', '/flag'],
    ['then AICAP_CACHE_DIR', undefined, { [CACHE_DIRECTORY_VARIABLE]: '/env', XDG_CACHE_HOME: '/xdg' }, 'linux', '/env'],
    ['then XDG_CACHE_HOME/aicap, on any platform', undefined, { XDG_CACHE_HOME: '/xdg', HOME: '/home/u' }, 'darwin', join('/xdg', 'aicap')],
    ['an empty variable counts as unset', '', { [CACHE_DIRECTORY_VARIABLE]: '', XDG_CACHE_HOME: '', HOME: '/home/u' }, 'linux', join('/home/u', '.cache', 'aicap')],
    ['Linux: ~/.cache/aicap', undefined, { HOME: '/home/u' }, 'linux', join('/home/u', '.cache', 'aicap')],
    ['macOS: ~/Library/Caches/aicap', undefined, { HOME: '/Users/u' }, 'darwin', join('/Users/u', 'Library', 'Caches', 'aicap')],
    ['Windows: %LOCALAPPDATA%\\aicap\\Cache', undefined, { LOCALAPPDATA: 'C:/Users/u/AppData/Local', HOME: 'C:/Users/u' }, 'win32', join('C:/Users/u/AppData/Local', 'aicap', 'Cache')],
    ['Windows without LOCALAPPDATA', undefined, { HOME: 'C:/Users/u' }, 'win32', join('C:/Users/u', 'AppData', 'Local', 'aicap', 'Cache')],
    ['no HOME: the home directory of the account', undefined, {}, 'linux', join(homedir(), '.cache', 'aicap')],
  ] as const)('%s', (_case, flag, environment, platform, expected) => {
    expect(cacheDirectoryOf(flag, environment, platform)).toBe(expected);
  });
});

describe('cacheStoreOfFlags', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'aicap-cli-cache-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('is false with --no-cache, whatever --cache-dir says', () => {
    expect(cacheStoreOfFlags(captureCliIo(), { 'no-cache': true, 'cache-dir': directory })).toBe(false);
  });

  it('keeps entries in --cache-dir', async () => {
    const store = cacheStoreOfFlags(captureCliIo(), { 'cache-dir': directory });
    if (store === false) throw new Error('expected a store');
    await store.set('https://api.example.com/.well-known/ai-capabilities', { value: 1 } as never);
    expect((await readdir(directory, { recursive: true })).length).toBeGreaterThan(0);
  });

  it('warns on the io (never throws) when the directory cannot be used', async () => {
    const io = captureCliIo();
    // A directory under a regular file cannot be created (ENOTDIR).
    const file = join(directory, 'a-file');
    await writeFile(file, '');
    const store = cacheStoreOfFlags(io, { 'cache-dir': join(file, 'cache') });
    if (store === false) throw new Error('expected a store');
    await store.set('https://api.example.com/.well-known/ai-capabilities', { value: 1 } as never);
    expect(await store.get('https://api.example.com/.well-known/ai-capabilities')).toBeUndefined();
    expect(io.err).toMatch(/^⚠ Could not write to the cache directory .*a-file\/cache \(.*ENOTDIR.*\); going on without caching\.\n$/);
  });
});

describe('cacheUsage', () => {
  it('names both flags and the variable, aligned at the column', () => {
    const text = cacheUsage(20);
    expect(text).toContain(`  ${'--cache-dir <dir>'.padEnd(20)}where fetched manifests`);
    expect(text).toContain(`  ${'--no-cache'.padEnd(20)}neither read nor write`);
    expect(text).toContain(`$${CACHE_DIRECTORY_VARIABLE}`);
  });
});
