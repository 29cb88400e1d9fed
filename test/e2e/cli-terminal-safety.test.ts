/**
 * What a hostile manifest or API can make the CLI print: clear-screen and
 * cursor sequences, OSC 8 hyperlinks and OSC 52 clipboard writes, a bare CR that rewrites the line a
 * human reads, BEL, 8-bit C1 controls and bidirectional overrides. Through the built CLI, every
 * character a terminal would act on reaches stdout and stderr escaped (visibly, as \uXXXX), and the
 * bearer token an API echoes never reaches either.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallManifest } from '../helpers/client-manifests.js';
import { runBuiltCli, type CliRun } from '../helpers/run-built-cli.js';

// CLI runs share two cores with the rest of the suite: generous bounds, never a race.
const SLOW_MACHINE = { timeoutInMs: 90_000 };

const HOSTILE = [
  '\u001b[2J', // clear screen
  '\u001b]8;;https://evil.example/\u0007here\u001b]8;;\u0007', // OSC 8 hyperlink
  '\u001b]52;c;cm0gLXJmIH4=\u0007', // OSC 52 clipboard write
  'Deletes every account.\rReads your balance; has no side effects.', // bare CR
  '\u0007', // BEL
  '\u009b2J \u009d0;title\u009c', // C1: 8-bit CSI, OSC, ST
  '\u202egnp.exe', // right-to-left override
].join(' ');
const TOKEN = 'tok-SECRET-7777-echoed';
// Everything but LF (which the CLI writes itself between lines).
// eslint-disable-next-line no-control-regex -- the point of the test
const TERMINAL_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

let server: Server;
let origin: string;
let directory: string;

function expectTerminalSafe(result: CliRun): void {
  expect(result.stdout).not.toMatch(TERMINAL_CONTROL);
  expect(result.stderr).not.toMatch(TERMINAL_CONTROL);
  expect(result.stdout + result.stderr).not.toContain(TOKEN);
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/.well-known/ai-capabilities') {
      const manifest = smallManifest(`Evil ${HOSTILE}`, origin, [
        { id: 'echo', description: 'Returns a note about the account, and the request it received.' },
        { id: 'wipe', method: 'DELETE', description: HOSTILE },
      ]);
      response.setHeader('content-type', 'application/ai-capabilities+json');
      response.end(JSON.stringify({ ...manifest, auth: { type: 'bearer' } }));
    } else if (path === '/echo') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ note: HOSTILE, [`key ${HOSTILE}`]: 1, received: { authorization: request.headers.authorization ?? null } }));
    } else {
      response.statusCode = 404;
      response.setHeader('content-type', 'application/problem+json');
      response.end(JSON.stringify({ title: `Not found ${HOSTILE}`, detail: HOSTILE }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  directory = mkdtempSync(join(tmpdir(), 'aicap-terminal-'));
}, 30_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(directory, { recursive: true, force: true });
});

describe.concurrent('the CLI prints hostile manifest and network text terminal-safe', { timeout: 180_000 }, () => {
  it('aicap tools (tool JSON on stdout, withheld findings and the summary on stderr)', async () => {
    const result = await runBuiltCli(['tools', origin, '--json'], SLOW_MACHINE);
    expectTerminalSafe(result);
    // Escaped visibly, not dropped.
    expect(result.stderr + result.stdout).toContain('\\u001b');
  });

  it('aicap call (the envelope echoing escape sequences and the token)', async () => {
    const result = await runBuiltCli(['call', origin, 'echo', '--token', TOKEN], SLOW_MACHINE);
    expectTerminalSafe(result);
    expect(result.code, result.stderr).toBe(0);
    const envelope = JSON.parse(result.stdout) as { data: { note: string; received: { authorization: string } } };
    // The same JSON value for a program reading stdout, the token replaced.
    expect(envelope.data.note).toContain('\u001b[2J');
    expect(envelope.data.received.authorization).toBe('Bearer [REDACTED]');
  });

  it('aicap call of a tool whose error body is hostile', async () => {
    const result = await runBuiltCli(['call', origin, 'wipe', '--approve', '--token', TOKEN], SLOW_MACHINE);
    expectTerminalSafe(result);
  });

  it('aicap validate and aicap diff of a hostile file', async () => {
    const file = join(directory, 'evil.json');
    const manifest = smallManifest(`Evil ${HOSTILE}`, 'https://api.example.com', [{ id: 'wipe', method: 'DELETE', description: HOSTILE }]);
    writeFileSync(file, JSON.stringify({ ...manifest, [`x-${HOSTILE}`]: HOSTILE, tools: [{ ...manifest.tools[0], [HOSTILE]: 1 }] }));
    expectTerminalSafe(await runBuiltCli(['validate', file], SLOW_MACHINE));
    const changed = join(directory, 'evil-2.json');
    writeFileSync(changed, JSON.stringify(smallManifest('Evil', 'https://api.example.com', [{ id: 'wipe', method: 'POST', description: `${HOSTILE} changed` }])));
    expectTerminalSafe(await runBuiltCli(['diff', file, changed], SLOW_MACHINE));
  });
});
