import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchWithCache } from '../client/cache/fetch-with-cache.js';
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

  it('writes the Uint8Array fields of a value raw after its record, in the one file of the entry, and reads them back as bytes', async () => {
    const body = new Uint8Array(300_000).map((_, index) => index % 251);
    const store = createFileCacheStore({ directory, warn: (message) => expect.fail(message) });
    await store.set('manifest', { url: 'https://api.example/x', body, empty: new Uint8Array(0), policy: { etag: '"v1"' } }, 60_000);
    const files = await readdir(directory);
    expect(files.map((name) => name.slice(40))).toEqual(['.json']);
    const data = await readFile(join(directory, files[0]!));
    const end = data.indexOf(0x0a);
    // The bytes as they are after the record's line, not as base64 text (a third larger) inside the JSON.
    expect(data.subarray(end + 1).equals(body)).toBe(true);
    const record = JSON.parse(data.subarray(0, end).toString('utf8')) as { value: object; bytes: object };
    expect(record.value).toEqual({ url: 'https://api.example/x', policy: { etag: '"v1"' } });
    expect(record.bytes).toEqual({
      fields: [
        { name: 'body', length: 300_000 },
        { name: 'empty', length: 0 },
      ],
      sha256: createHash('sha256').update(body).digest('hex'),
    });
    const read = (await createFileCacheStore({ directory, warn: (message) => expect.fail(message) }).get('manifest')) as Record<string, unknown>;
    expect(read).toEqual({ url: 'https://api.example/x', body, empty: new Uint8Array(0), policy: { etag: '"v1"' } });
    expect(Object.getPrototypeOf(read['body'])).toBe(Uint8Array.prototype);
    await store.delete('manifest');
    expect(await readdir(directory)).toEqual([]);
  });

  it("keeps a fetched manifest's body raw, so that another process answers from it with the same bytes", async () => {
    const body = Buffer.from(JSON.stringify({ schema_version: '0.1', text: 'x'.repeat(100_000) }));
    const sent: string[] = [];
    const send = async (url: string): Promise<{ status: number; statusText: string; url: string; headers: Headers; body: Uint8Array }> => {
      sent.push(url);
      return { status: 200, statusText: 'OK', url, headers: new Headers({ 'cache-control': 'max-age=60', 'content-type': 'application/json', etag: '"v1"' }), body };
    };
    const url = 'https://api.example/.well-known/ai-capabilities';
    await fetchWithCache(send, createFileCacheStore({ directory, warn: (message) => expect.fail(message) }), url, {});
    const files = await readdir(directory);
    expect(files).toHaveLength(1);
    // Before, the body was base64 inside the JSON record: a third more bytes to encode, write, read and decode.
    const data = await readFile(join(directory, files[0]!));
    const end = data.indexOf(0x0a);
    expect(data.subarray(end + 1).equals(body)).toBe(true);
    expect(end).toBeLessThan(2_000);
    const hit = await fetchWithCache(send, createFileCacheStore({ directory, warn: (message) => expect.fail(message) }), url, {});
    expect(hit.source).toBe('cache');
    expect(Buffer.from(hit.body).equals(body)).toBe(true);
    expect(hit.headers.get('etag')).toBe('"v1"');
    expect(sent).toHaveLength(1);
  });

  it('bytes that are damaged, cut short, longer or missing are a miss with one warning, never other bytes, and are replaced on the next write', async () => {
    const body = Buffer.from('{"schema_version":"0.1","tools":[]}'.repeat(100));
    const damaged = 'holds other bytes than its record was written with (damaged)';
    const corruptions: Array<[string, (data: Buffer, end: number) => Buffer, string]> = [
      ['damaged', (data) => Buffer.concat([data.subarray(0, data.byteLength - 10), Buffer.from('0123456789')]), damaged],
      ['cut short', (data) => data.subarray(0, data.byteLength - 1), damaged],
      ['longer', (data) => Buffer.concat([data, Buffer.from('x')]), damaged],
      ['missing', (data, end) => data.subarray(0, end), 'lacks the bytes its record names'],
    ];
    for (const [name, corrupt, problem] of corruptions) {
      const warnings: string[] = [];
      const store = createFileCacheStore({ directory: join(directory, name), warn: (message) => void warnings.push(message) });
      await store.set('k', { body, url: 'u' });
      const [file] = await readdir(join(directory, name));
      const path = join(directory, name, file!);
      const data = await readFile(path);
      await writeFile(path, corrupt(data, data.indexOf(0x0a)));
      expect(await store.get('k'), name).toBeUndefined();
      expect(await store.get('k'), name).toBeUndefined();
      expect(warnings, name).toEqual([`Ignoring the cache file ${path}: it ${problem}; it will be replaced on the next write (remove the directory ${join(directory, name)} to empty the cache).`]);
      await store.set('k', { body, url: 'again' });
      expect(await store.get('k'), name).toEqual({ body: new Uint8Array(body), url: 'again' });
    }
  });

  it('concurrent writers of byte fields in separate processes leave one whole entry, and a reader never gets bytes of another write', async () => {
    const moduleUrl = new URL('../../dist/node/create-file-cache-store.js', import.meta.url).href;
    // Each write's bytes are filled with one value that its JSON names: a mix of two writes shows.
    const writer = `const { createFileCacheStore } = await import(${JSON.stringify(moduleUrl)});
      const store = createFileCacheStore({ directory: process.argv[1], warn: (m) => { console.error(m); process.exitCode = 3; } });
      for (let round = 0; round < 20; round++) {
        const fill = (process.pid * 31 + round) % 256;
        await store.set('shared', { fill, round, body: new Uint8Array(400_000 + round * 1_000).fill(fill) });
      }`;
    const run = (): Promise<number> =>
      new Promise((resolve) =>
        execFile(process.execPath, ['--input-type=module', '-e', writer, directory], { timeout: 60_000 }, (error) => resolve(error ? (typeof error.code === 'number' ? error.code : -1) : 0)),
      );
    // A read between another process's bytes and its record misses (and says so): never other bytes.
    const warnings: string[] = [];
    const reader = createFileCacheStore({ directory, warn: (message) => void warnings.push(message) });
    let writing = true;
    const writers = Promise.all([run(), run(), run()]).finally(() => (writing = false));
    const readsWhileWriting = (async () => {
      const deadline = Date.now() + 30_000;
      const mixed: string[] = [];
      let reads = 0;
      for (let attempt = 0; writing && attempt < 100_000 && Date.now() < deadline; attempt++) {
        const value = (await reader.get('shared')) as { fill: number; round: number; body: Uint8Array } | undefined;
        if (value === undefined) continue;
        reads++;
        if (value.body.byteLength !== 400_000 + value.round * 1_000 || value.body.some((byte) => byte !== value.fill)) mixed.push(`round ${value.round}`);
      }
      return { reads, mixed };
    })();
    expect(await writers).toEqual([0, 0, 0]);
    const { reads, mixed } = await readsWhileWriting;
    expect(mixed).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    // One file per entry, replaced by one rename: a reader never meets a record beside bytes of another write.
    expect(warnings).toEqual([]);
    const final = (await createFileCacheStore({ directory, warn: (message) => expect.fail(message) }).get('shared')) as { fill: number; round: number; body: Uint8Array };
    expect(final.round).toBe(19);
    expect(final.body.every((byte) => byte === final.fill)).toBe(true);
    expect((await readdir(directory)).map((name) => name.slice(40))).toEqual(['.json']);
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
