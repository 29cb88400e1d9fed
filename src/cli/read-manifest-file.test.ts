import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AicapError } from '../errors/aicap-error.js';
import { TERMINAL_CONTROL } from '../../test/helpers/run-cli-command.js';
import { fileErrorReason, isUrlSource, openApiHint, readManifestFile } from './read-manifest-file.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'aicap-read-manifest-file-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** The `INPUT_UNREADABLE` error `readManifestFile` rejects with. */
async function readError(path: string, maxSizeInBytes = 1024): Promise<AicapError> {
  const error = await readManifestFile(path, maxSizeInBytes).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!AicapError.isInstance(error)) throw new Error(`expected an AicapError, got ${String(error)}`);
  return error;
}

describe('isUrlSource', () => {
  it.each([
    ['https://api.example.com', true],
    ['http://127.0.0.1:3000/.well-known/ai-capabilities', true],
    ['file:///tmp/manifest.json', true],
    ['manifest.json', false],
    ['./dir/manifest.json', false],
    ['/abs/manifest.json', false],
    ['C:\\manifests\\payments.json', false],
    ['c:/manifests/payments.json', false],
    ['127.0.0.1:3000', false],
  ])('%s → %s', (source, expected) => {
    expect(isUrlSource(source)).toBe(expected);
  });
});

describe('readManifestFile', () => {
  it('reads the whole file when it fits', async () => {
    const file = join(directory, 'small.json');
    await writeFile(file, '{"aicap":"0.3"}');
    expect(new TextDecoder().decode(await readManifestFile(file, 1024))).toBe('{"aicap":"0.3"}');
  });

  it('reads one byte past the cap, no more, so the parser can name --max-size', async () => {
    const file = join(directory, 'large.json');
    await writeFile(file, 'x'.repeat(10_000));
    expect((await readManifestFile(file, 100)).byteLength).toBe(101);
  });

  it('does not reserve memory for the whole cap: a huge --max-size reads a small file', async () => {
    const file = join(directory, 'tiny.json');
    await writeFile(file, '{}');
    // `--max-size 9007199254740991` is a valid whole number; the file is 2 bytes.
    expect(new TextDecoder().decode(await readManifestFile(file, Number.MAX_SAFE_INTEGER))).toBe('{}');
    expect((await readManifestFile(file, 2 ** 33)).byteLength).toBe(2);
  });

  it('reads a file in many chunks up to the cap', async () => {
    const file = join(directory, 'chunked.json');
    const text = 'ab'.repeat(200_000);
    await writeFile(file, text);
    expect((await readManifestFile(file, 10_000_000)).byteLength).toBe(400_000);
    expect((await readManifestFile(file, 300_000)).byteLength).toBe(300_001);
  });

  it.each([
    ['a missing file', 'missing.json', /^Cannot read .*missing\.json: no such file\.$/],
    ['a host:port typed without its scheme', '127.0.0.1:3917', /no such file; for a server, add the scheme: http:\/\/127\.0\.0\.1:3917\.$/],
    ['a host:port/path typed without its scheme', 'localhost:3000/x', /add the scheme: http:\/\/localhost:3000\/x/],
    ['an IPv6 address and port', '[::1]:8080', /add the scheme: http:\/\/\[::1\]:8080/],
  ])('says what to do for %s', async (_case, name, expected) => {
    const path = name.includes(':') ? name : join(directory, name);
    const error = await readError(path);
    expect(error.code).toBe('INPUT_UNREADABLE');
    expect(error.message).toMatch(expected);
  });

  it('says a directory is a directory', async () => {
    const sub = join(directory, 'a-directory');
    await mkdir(sub, { recursive: true });
    expect((await readError(sub)).message).toContain('it is a directory; give a manifest file');
  });

  it.skipIf(process.getuid?.() === 0)('says permission denied for an unreadable file', async () => {
    const file = join(directory, 'locked.json');
    await writeFile(file, '{}');
    await chmod(file, 0o000);
    expect((await readError(file)).message).toMatch(/: permission denied\.$/);
  });

  it('escapes what a terminal would act on in the path it quotes', async () => {
    const message = (await readError(join(directory, 'evil\u001b[2J\u202e.json'))).message;
    expect(message).not.toMatch(TERMINAL_CONTROL);
    expect(message).toContain('evil\\u001b[2J\\u202e.json');
  });
});

describe('fileErrorReason', () => {
  it.each([
    ['ENOENT', 'x.json', 'no such file'],
    ['EISDIR', 'x', 'it is a directory; give a manifest file'],
    ['EACCES', 'x.json', 'permission denied'],
    ['EPERM', 'x.json', 'permission denied'],
  ])('%s', (code, path, expected) => {
    expect(fileErrorReason(path, Object.assign(new Error('raw'), { code }))).toBe(expected);
  });

  it('escapes an unknown error message, which may quote anything', () => {
    expect(fileErrorReason('x', new Error('bad \u0007\u009b thing'))).toBe('bad \\u0007\\u009b thing');
    expect(fileErrorReason('x', 'not an error')).toBe('not an error');
  });
});

describe('openApiHint', () => {
  const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
  it.each([
    ['a JSON OpenAPI 3 document', 'api.json', '{"openapi":"3.1.0","info":{}}', true],
    ['a JSON Swagger 2 document', 'api.json', '{\n  "swagger": "2.0"\n}', true],
    ['a YAML OpenAPI document', 'api.txt', 'openapi: 3.0.3\ninfo: {}\n', true],
    ['any .yaml file', 'api.yaml', 'not: openapi', true],
    ['any .YML file', 'API.YML', '', true],
    ['a broken manifest', 'manifest.json', '{"aicap":"0.3","service":{}}', false],
    ['a manifest that mentions openapi in a description', 'm.json', '{"description":"openapi: no"}', false],
  ])('%s → %s', (_case, source, text, expected) => {
    const hint = openApiHint(source, bytes(text));
    if (expected) expect(hint).toBe(` It looks like an OpenAPI description: run \`aicap generate ${source} -o manifest.json\` to make one.`);
    else expect(hint).toBe('');
  });

  it('only looks at the first 4 KiB', () => {
    expect(openApiHint('big.json', bytes(`${' '.repeat(5000)}{"openapi":"3.1.0"}`))).toBe('');
  });

  it('escapes the source it quotes in the command to run', () => {
    expect(openApiHint('a\u001b]8;;x.yaml', bytes(''))).toContain('aicap generate a\\u001b]8;;x.yaml');
  });
});
