import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { startExampleProcess, type ExampleProcess } from '../helpers/start-example-process.js';

// Runs the built example as `npm run example` does (npm test builds before vitest runs).
const started: ExampleProcess[] = [];
afterEach(async () => {
  for (const example of started.splice(0)) await example.stop();
});

function startExample(port: string): ExampleProcess {
  const example = startExampleProcess({ env: { PORT: port } });
  started.push(example);
  return example;
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
    const { child, stop } = startExample('not-a-port');
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(2);
    expect(await stop()).toContain('PORT must be an integer');
  });

  it('exits with status 1 and a message, not a stack trace, when the port is taken', async () => {
    const first = startExample('0');
    const port = new URL(await first.firstLine).port;
    const { child, stop } = startExample(port);
    const [code] = (await once(child, 'exit')) as [number];
    const stderr = await stop();
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
