import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../manifest/manifest-v0.js';
import { createJobStreams } from '../server/create-job-streams.js';
import { aiCapabilities, jobStreamsMiddleware, startJob } from './index.js';

const manifest = JSON.parse(readFileSync(new URL('../../examples/payments/payments.manifest.json', import.meta.url), 'utf8')) as Manifest;

describe('aicap/hono', () => {
  it('serves the manifest and hands other paths to the app', async () => {
    const app = new Hono();
    app.use(aiCapabilities({ manifest }));
    app.get('/ping', (context) => context.text('pong'));
    const response = await app.request('/.well-known/ai-capabilities');
    expect(response.headers.get('content-type')).toBe('application/ai-capabilities+json');
    expect(await (await app.request('/ping')).text()).toBe('pong');
  });

  it('answers the manifest route without a promise once the manifest is prepared, as a static route does', async () => {
    const middleware = aiCapabilities({ manifest });
    const app = new Hono();
    app.use(middleware);
    await middleware.manifestHandler.ready;
    const answer = app.fetch(new Request('http://localhost/.well-known/ai-capabilities'));
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).headers.get('etag')).toMatch(/^"sha256-/);
    expect(await (answer as Response).json()).toMatchObject({ service: { name: manifest.service.name } });
  });

  it('starts a job and serves its status through the middleware', async () => {
    const jobs = createJobStreams();
    const app = new Hono();
    app.use(jobStreamsMiddleware(jobs));
    app.post('/start', (context) => startJob(jobs, context, async () => 42));
    const started = await app.request('/start', { method: 'POST' });
    expect(started.status).toBe(202);
    const location = started.headers.get('location') ?? '';
    let status = '';
    for (let attempt = 0; attempt < 200 && status !== 'completed'; attempt++) {
      status = ((await (await app.request(location)).json()) as { status: string }).status;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(status).toBe('completed');
    expect(await (await app.request(`${location}/result`)).json()).toBe(42);
  });
});
