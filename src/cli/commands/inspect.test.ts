import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCommand, useCommandFixture, useOccupiedPort, type CommandRun } from '../../../test/helpers/run-cli-command.js';
import { inspectCommand } from './inspect.js';

const fixture = useCommandFixture(inspectCommand, 'aicap-inspect-');
const run = (...argv: string[]): Promise<CommandRun> => runCliCommand(inspectCommand, argv);
/** Starts `aicap inspect … --no-open` and resolves with the URL it prints. */
const inspect = async (...argv: string[]): Promise<URL> => new URL(await fixture.start([...argv, '--no-open']));

describe('aicap inspect', () => {
  it('prints a loopback URL with a secret token; the page needs it; SIGINT stops it with exit 0', async () => {
    const url = await inspect(fixture.manifestFile, '--port', '0');
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.searchParams.get('token')).toMatch(/^[\w-]{32}$/);
    const withToken = await fetch(url, { redirect: 'manual' });
    expect(withToken.status).toBe(303);
    expect(withToken.headers.get('set-cookie')).toContain('HttpOnly');
    const withoutToken = await fetch(new URL('/', url.origin));
    expect(withoutToken.status).toBeGreaterThanOrEqual(400);
    expect(await fixture.running!.stop()).toBe(0);
    // Stopped: nothing listens there any more.
    await expect(fetch(url)).rejects.toThrow();
  });

  it('starts without a source (the page asks for one)', async () => {
    const url = await inspect();
    expect(url.pathname).toBe('/');
  });

  it('warns when the manifest file is refused, and still serves the page that says why', async () => {
    const invalid = join(fixture.directory, 'invalid.json');
    await writeFile(invalid, JSON.stringify({ schema_version: '0.3.0', tools: 'none' }));
    await inspect(invalid);
    expect(fixture.running!.io.err).toMatch(/^⚠ .*invalid\.json: .*\(the page shows the details\)\.\n$/);
  });

  describe('refuses to start (exit 2, no server)', () => {
    const occupied = useOccupiedPort();

    it('when the port is in use, naming --port', async () => {
      const { code, out, err } = await run(fixture.manifestFile, '--no-open', '--port', String(occupied.port));
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toBe(`✘ Port ${occupied.port} is in use on 127.0.0.1: pick another with \`--port\`, or \`--port 0\` for a free one.\n`);
    });

    it.each([
      [() => [join(fixture.directory, 'missing.json')], /Cannot read .*missing\.json: no such file\./],
      [() => [join(fixture.directory, 'sub')], /it is a directory; give a manifest file/],
      [() => ['127.0.0.1:3000'], /no such file; for a server, add the scheme: http:\/\/127\.0\.0\.1:3000/],
      [() => [fixture.manifestFile, '--port', '65536'], /The `--port` option must be a whole number \(port\), from 0 to 65535; got "65536"\./],
      // Digits only, as `serve` reads it: not port 1000.
      [() => [fixture.manifestFile, '--port', '1e3'], /The `--port` option must be a whole number \(port\), from 0 to 65535; got "1e3"\./],
      [() => [fixture.manifestFile, '--port', '0x50'], /got "0x50"/],
      [() => ['a.json', 'b.json'], /Expected at most one origin or manifest file, got 2\./],
      [() => [fixture.manifestFile, '--no-opn'], /Unknown option `--no-opn`: did you mean `--no-open`\?/],
    ])('%#', async (argv, expected) => {
      await mkdir(join(fixture.directory, 'sub'), { recursive: true });
      const { code, out, err } = await run(...argv(), '--no-open');
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toMatch(expected);
    });
  });
});
