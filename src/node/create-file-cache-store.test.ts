import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileCacheStore } from './create-file-cache-store.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'aicap-file-cache-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('createFileCacheStore', () => {
  it('keeps JSON values across store instances (processes) with their expiry, and is private', async () => {
    let now = 1_000;
    const warnings: string[] = [];
    const store = createFileCacheStore({ directory: join(directory, 'nested'), warn: (message) => void warnings.push(message), now: () => now });
    expect(store.private).toBe(true);
    await store.set('manifest|https://api.example/x', { body: 'e30=' }, 100);
    await store.set('forever', [1, 2]);
    const other = createFileCacheStore({ directory: join(directory, 'nested'), warn: (message) => void warnings.push(message), now: () => now });
    expect(await other.get('manifest|https://api.example/x')).toEqual({ body: 'e30=' });
    now += 100;
    expect(await other.get('manifest|https://api.example/x')).toBeUndefined();
    expect(await other.get('forever')).toEqual([1, 2]);
    await other.delete('forever');
    expect(await store.get('forever')).toBeUndefined();
    expect(await store.get('never-set')).toBeUndefined();
    expect(warnings).toEqual([]);
    // No temporary file is left behind.
    expect((await readdir(join(directory, 'nested'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('ignores a corrupted file with one warning naming it, and replaces it on the next write', async () => {
    const warnings: string[] = [];
    const store = createFileCacheStore({ directory, warn: (message) => void warnings.push(message) });
    await store.set('k', { ok: true });
    const [file] = await readdir(directory);
    for (const corrupted of ['{"key":"k","expiresAtInMs":null,"val', 'null', '{"key":"k","expiresAtInMs":"soon","value":1}', '\u0000\u0001']) {
      await writeFile(join(directory, file!), corrupted);
      expect(await store.get('k')).toBeUndefined();
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(
        `Ignoring the corrupted cache file .*${file!.replace('.', '\\.')}; it will be replaced on the next write \\(remove the directory ${directory.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} to empty the cache\\)\\.$`,
      ),
    );
    await store.set('k', { ok: 'again' });
    expect(await store.get('k')).toEqual({ ok: 'again' });
  });

  it('a directory that cannot be written makes the cache miss with one warning, not fail', async () => {
    const blocker = join(directory, 'file');
    await writeFile(blocker, 'not a directory');
    const warnings: string[] = [];
    const store = createFileCacheStore({ directory: join(blocker, 'cache'), warn: (message) => void warnings.push(message) });
    await store.set('a', 1);
    await store.set('b', 2);
    expect(await store.get('a')).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Could not write to the cache directory .*going on without caching/);
  });

  it('refuses at once, with INVALID_OPTION naming the option and what to do, a directory that is not one', async () => {
    const file = join(directory, 'a-file');
    await writeFile(file, 'not a directory');
    for (const [given, message] of [
      [file, `The \`directory\` option of createFileCacheStore must be a directory, got ${JSON.stringify(file)}. ${file} exists and is not a directory. Pass the path of a directory`],
      ['', 'The `directory` option of createFileCacheStore must be a non-empty path, got "". Pass the path of a directory'],
      [undefined, 'The `directory` option of createFileCacheStore must be a non-empty path, got undefined.'],
    ] as const) {
      expect(() => createFileCacheStore({ directory: given as string })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining(message) }));
    }
  });

  it('refuses with INVALID_OPTION, not a TypeError, a call from JavaScript without an options object', () => {
    for (const given of [undefined, null, 'cache-directory']) {
      expect(() => createFileCacheStore(given as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('The `directory` option of createFileCacheStore must be a non-empty path') }),
      );
    }
  });

  it('resolves a relative directory once, and warns through a Node process warning by default', async () => {
    const store = createFileCacheStore({ directory: relative(process.cwd(), join(directory, 'relative')) });
    await store.set('k', 1);
    expect(await readdir(join(directory, 'relative'))).toHaveLength(1);
    const [file] = await readdir(join(directory, 'relative'));
    await writeFile(join(directory, 'relative', file!), 'torn');
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      expect(await store.get('k')).toBeUndefined();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((warning) => [warning.name, warning.message.startsWith(`Ignoring the corrupted cache file ${join(directory, 'relative', file!)}`)])).toEqual([['AicapCacheWarning', true]]);
  });

  it('concurrent writers in separate processes leave one whole entry that every reader parses', async () => {
    // The built module (\`npm test\` builds first): child processes run plain JavaScript.
    const moduleUrl = new URL('../../dist/node/create-file-cache-store.js', import.meta.url).href;
    const writer = `const { createFileCacheStore } = await import(${JSON.stringify(moduleUrl)});
      const store = createFileCacheStore({ directory: process.argv[1], warn: (m) => { console.error(m); process.exitCode = 3; } });
      for (let round = 0; round < 20; round++) await store.set('shared', { writer: process.pid, round, padding: 'x'.repeat(200_000) });`;
    const run = (): Promise<number> =>
      new Promise((resolve) =>
        execFile(process.execPath, ['--input-type=module', '-e', writer, directory], { timeout: 60_000 }, (error) => resolve(error ? (typeof error.code === 'number' ? error.code : -1) : 0)),
      );
    const reader = createFileCacheStore({ directory, warn: (message) => expect.fail(message) });
    const readsWhileWriting = (async () => {
      const deadline = Date.now() + 20_000;
      let reads = 0;
      for (let attempt = 0; attempt < 2_000 && Date.now() < deadline; attempt++) {
        const value = (await reader.get('shared')) as { round: number } | undefined;
        if (value !== undefined) reads++;
        await new Promise((resolve) => setImmediate(resolve));
      }
      return reads;
    })();
    expect(await Promise.all([run(), run(), run()])).toEqual([0, 0, 0]);
    await readsWhileWriting;
    const final = JSON.parse(
      await readFile(
        join(
          directory,
          (await readdir(directory)).find((name) => name.endsWith('.json'))!,
        ),
        'utf8',
      ),
    ) as { value: { round: number } };
    expect(final.value.round).toBe(19);
    expect((await readdir(directory)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
