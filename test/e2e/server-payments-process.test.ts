import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';

// Runs the built example as `npm run example` does (npm test builds before vitest runs).
const serverScript = new URL('../../examples/payments/dist/server.js', import.meta.url).pathname;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
});

function startExample(port: string): { child: ChildProcess; firstLine: Promise<string> } {
  const child = spawn(process.execPath, [serverScript], { env: { ...process.env, PORT: port }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const firstLine = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no origin on stdout within 10 s')), 10_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`example exited with ${String(code)} before printing its origin`)));
  });
  // Tests that expect an early exit never await the line.
  firstLine.catch(() => undefined);
  return { child, firstLine };
}

describe('npm run example (built Payments server)', () => {
  it('prints its origin as the first stdout line with PORT=0 and serves the manifest there', async () => {
    const { firstLine } = startExample('0');
    const origin = await firstLine;
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${origin}/.well-known/ai-capabilities`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/ai-capabilities+json');
    expect(((await response.json()) as { service: { base_url: string } }).service.base_url).toBe(`${origin}/v2`);
  });

  it('exits with status 2 and a message for an invalid PORT', async () => {
    const { child } = startExample('not-a-port');
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(2);
    expect(stderr).toContain('PORT must be an integer');
  });

  it('exits with status 1 and a message, not a stack trace, when the port is taken', async () => {
    const first = startExample('0');
    const port = new URL(await first.firstLine).port;
    const { child } = startExample(port);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(1);
    expect(stderr).toContain(`port ${port} is in use`);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('stops cleanly on SIGTERM', async () => {
    const { child, firstLine } = startExample('0');
    await firstLine;
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(0);
  });
});
