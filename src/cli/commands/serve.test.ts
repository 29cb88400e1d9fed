import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCommand, TERMINAL_CONTROL, useCommandFixture, useOccupiedPort, type CommandRun } from '../../../test/helpers/run-cli-command.js';
import { serveCommand } from './serve.js';

const WELL_KNOWN = '/.well-known/ai-capabilities';

const fixture = useCommandFixture(serveCommand, 'aicap-serve-');
const run = (...argv: string[]): Promise<CommandRun> => runCliCommand(serveCommand, argv);
/** Starts `aicap serve` and resolves with the origin it prints. */
const serve = (...argv: string[]): Promise<string> => fixture.start(argv);

describe('aicap serve', () => {
  it('serves the manifest with its base_url moved to the served origin, ETag and Cache-Control', async () => {
    const origin = await serve(fixture.manifestFile, '--port', '0', '--max-age', '60');
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${origin}${WELL_KNOWN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    const manifest = (await response.json()) as { service: { base_url: string } };
    expect(manifest.service.base_url).toBe(`${origin}/v2`);
    const etag = response.headers.get('etag')!;
    expect((await fetch(`${origin}${WELL_KNOWN}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect(fixture.running!.io.err).toContain(`✔ service.base_url https://api.example.com/v2 served as ${origin}/v2`);
    expect(await fixture.running!.stop()).toBe(0);
  });

  it('serves --base-url as given, and lists the manifest in the AI Catalog', async () => {
    const origin = await serve(fixture.manifestFile, '--port', '0', '--base-url', 'http://127.0.0.1:9/api');
    const manifest = (await (await fetch(`${origin}${WELL_KNOWN}`)).json()) as { service: { base_url: string } };
    expect(manifest.service.base_url).toBe('http://127.0.0.1:9/api');
    const catalog = JSON.stringify(await (await fetch(`${origin}/.well-known/ai-catalog.json`)).json());
    expect(catalog).toContain(`${origin}${WELL_KNOWN}`);
    expect(fixture.running!.io.err).not.toContain('served as');
  });

  describe('refuses to start (exit 2)', () => {
    const occupied = useOccupiedPort();

    it('when the port is in use, naming --port', async () => {
      const { code, out, err } = await run(fixture.manifestFile, '--port', String(occupied.port));
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toContain(`Cannot listen on 127.0.0.1:${occupied.port}: the port is in use; stop what listens there, or pick another with \`--port <n>\``);
    });

    it('when --host is no address of this machine, naming --host', async () => {
      const { code, err } = await run(fixture.manifestFile, '--port', '0', '--host', '192.0.2.1');
      expect(code).toBe(2);
      expect(err).toContain('192.0.2.1 is not an address of this machine; give one with `--host <address>`');
    });

    it.each([
      ['a missing file', async () => join(fixture.directory, 'missing.json'), /no such file/],
      ['malformed JSON', async () => writeText('malformed.json', '{"service":'), /malformed\.json is not a valid manifest; run `aicap validate .*malformed\.json` for details\./],
      ['an invalid manifest', async () => writeText('invalid.json', JSON.stringify({ schema_version: '0.3.0', tools: [] })), /✘ \/service {2}schema\.required {2}/],
    ])('for %s', async (_case, file, expected) => {
      const { code, out, err } = await run(await file(), '--port', '0');
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toMatch(expected);
    });

    it.each([
      [['--port', '65536'], /The `--port` option must be a whole number \(port\), from 0 to 65535; got "65536"\./],
      [['--port', 'http'], /`--port`/],
      [['--max-age=-5'], /The `--max-age` option must be a whole number \(seconds\), 0 or more; got "-5"\./],
      // parseArgs takes `-5` for an option: the message must say how to pass such a value, not that none was given.
      [['--max-age', '-5'], /The `--max-age` option's value starts with "-": write the two as one, `--max-age=<value>`\./],
      [['--max-size', '0'], /The `--max-size` option must be a whole number \(bytes\), 1 or more; got "0"\./],
      [['--base-url', '/relative'], /The `--base-url` option takes an absolute http\(s\) URL such as http:\/\/127\.0\.0\.1:3000\/api, got "\/relative"\./],
      [['--base-url', 'ftp://127.0.0.1/x'], /`--base-url`/],
      [['--prot', '0'], /Unknown option `--prot`: did you mean `--port`\?/],
    ])('for %j', async (flags, expected) => {
      const { code, err } = await run(fixture.manifestFile, ...flags);
      expect(code).toBe(2);
      expect(err).toMatch(expected);
    });

    it('escaping a hostile --base-url and file name', async () => {
      const bad = await run(fixture.manifestFile, '--base-url', '\u001b[31mhttp');
      expect(bad.code).toBe(2);
      expect(bad.err).not.toMatch(TERMINAL_CONTROL);
      const missing = await run(join(fixture.directory, 'x\u001b]0;t\u0007.json'));
      expect(missing.code).toBe(2);
      expect(missing.err).not.toMatch(TERMINAL_CONTROL);
    });
  });
});

async function writeText(name: string, text: string): Promise<string> {
  const path = join(fixture.directory, name);
  await writeFile(path, text);
  return path;
}
