import { createServer, type Server } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { paymentsManifest } from '../../../test/helpers/client-manifests.js';
import { runCliCommand, startCliCommand, type CommandRun, type RunningCommand } from '../../../test/helpers/run-cli-command.js';
import { inspectCommand } from './inspect.js';

let directory: string;
let manifestFile: string;
let running: RunningCommand | undefined;
const run = (...argv: string[]): Promise<CommandRun> => runCliCommand(inspectCommand, argv);

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'aicap-inspect-'));
  manifestFile = join(directory, 'payments.json');
  await writeFile(manifestFile, JSON.stringify(paymentsManifest('https://api.example.com/v2')));
});
afterAll(() => rm(directory, { recursive: true, force: true }));
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** Starts `aicap inspect … --no-open` and resolves with the URL it prints. */
async function inspect(...argv: string[]): Promise<URL> {
  running = startCliCommand(inspectCommand, [...argv, '--no-open']);
  const line = await running.firstLine();
  if (typeof line === 'number') throw new Error(`aicap inspect exited ${line}: ${running.io.err}`);
  return new URL(line);
}

describe('aicap inspect', () => {
  it('prints a loopback URL with a secret token; the page needs it; SIGINT stops it with exit 0', async () => {
    const url = await inspect(manifestFile, '--port', '0');
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.searchParams.get('token')).toMatch(/^[\w-]{32}$/);
    const withToken = await fetch(url, { redirect: 'manual' });
    expect(withToken.status).toBe(303);
    expect(withToken.headers.get('set-cookie')).toContain('HttpOnly');
    const withoutToken = await fetch(new URL('/', url.origin));
    expect(withoutToken.status).toBeGreaterThanOrEqual(400);
    expect(await running!.stop()).toBe(0);
    // Stopped: nothing listens there any more.
    await expect(fetch(url)).rejects.toThrow();
  });

  it('starts without a source (the page asks for one)', async () => {
    const url = await inspect();
    expect(url.pathname).toBe('/');
  });

  it('warns when the manifest file is refused, and still serves the page that says why', async () => {
    const invalid = join(directory, 'invalid.json');
    await writeFile(invalid, JSON.stringify({ schema_version: '0.3.0', tools: 'none' }));
    await inspect(invalid);
    expect(running!.io.err).toMatch(/^⚠ .*invalid\.json: .*\(the page shows the details\)\.\n$/);
  });

  describe('refuses to start (exit 2, no server)', () => {
    let occupied: Server;
    let occupiedPort: number;
    beforeAll(async () => {
      occupied = createServer();
      await new Promise<void>((resolve) => occupied.listen(0, '127.0.0.1', resolve));
      occupiedPort = (occupied.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => occupied.close(() => resolve())));

    it('when the port is in use, naming --port', async () => {
      const { code, out, err } = await run(manifestFile, '--no-open', '--port', String(occupiedPort));
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toBe(`✘ Port ${occupiedPort} is in use on 127.0.0.1: pick another with \`--port\`, or \`--port 0\` for a free one.\n`);
    });

    it.each([
      [() => [join(directory, 'missing.json')], /Cannot read .*missing\.json: no such file\./],
      [() => [join(directory, 'sub')], /it is a directory; give a manifest file/],
      [() => ['127.0.0.1:3000'], /no such file; for a server, add the scheme: http:\/\/127\.0\.0\.1:3000/],
      [() => [manifestFile, '--port', '65536'], /The `--port` option must be a whole number \(port\), from 0 to 65535; got "65536"\./],
      // Digits only, as `serve` reads it: not port 1000.
      [() => [manifestFile, '--port', '1e3'], /The `--port` option must be a whole number \(port\), from 0 to 65535; got "1e3"\./],
      [() => [manifestFile, '--port', '0x50'], /got "0x50"/],
      [() => ['a.json', 'b.json'], /Expected at most one origin or manifest file, got 2\./],
      [() => [manifestFile, '--no-opn'], /Unknown option `--no-opn`: did you mean `--no-open`\?/],
    ])('%#', async (argv, expected) => {
      await mkdir(join(directory, 'sub'), { recursive: true });
      const { code, out, err } = await run(...argv(), '--no-open');
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toMatch(expected);
    });
  });
});
