import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../test/helpers/start-framework-server.js';
import { createJobStreams, type JobRunner } from './create-job-streams.js';
import type { JobSnapshot } from './job-event-store.js';
import { toNodeListener } from './to-node-listener.js';

// Jobs over a real socket: the SSE stream a client reads (ids, replay after Last-Event-ID, the end
// after a terminal status), isolation between credentials, and hostile ids and results answered with
// typed problems instead of a hang or a 500 without a body.

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function serveJobs(run: JobRunner): Promise<{ origin: string; start: (authorization?: string) => Promise<JobSnapshot> }> {
  const jobs = createJobStreams({ heartbeatIntervalInMs: 0, retryInMs: 1000 });
  const started = await listen(
    createServer(
      toNodeListener(async (request) => {
        if (new URL(request.url).pathname === '/reports' && request.method === 'POST') return jobs.start(request, run);
        return (await jobs.handle(request)) ?? new Response('not here', { status: 404 });
      }),
    ),
  );
  running.push(started);
  const start = async (authorization = 'Bearer owner'): Promise<JobSnapshot> => {
    const response = await fetch(`${started.origin}/reports`, { method: 'POST', headers: { Authorization: authorization } });
    expect(response.status).toBe(202);
    expect(response.headers.get('location')).toMatch(/^\/jobs\//);
    return (await response.json()) as JobSnapshot;
  };
  return { origin: started.origin, start };
}

/** Reads a whole SSE stream (it must end by itself within 5 s) into its events. */
async function readStream(url: string, headers: Record<string, string>): Promise<{ retry: string | undefined; events: Array<{ id: string; event: string; data: Record<string, unknown> }> }> {
  const response = await fetch(url, { headers: { Accept: 'text/event-stream', ...headers }, signal: AbortSignal.timeout(5_000) });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const text = await response.text();
  const events = [];
  let retry: string | undefined;
  for (const block of text.split('\n\n')) {
    const fields = new Map<string, string>();
    for (const line of block.split('\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
    }
    if (fields.has('retry')) retry = fields.get('retry');
    if (fields.has('data')) events.push({ id: fields.get('id') ?? '', event: fields.get('event') ?? 'message', data: JSON.parse(fields.get('data') ?? '') as Record<string, unknown> });
  }
  return { retry, events };
}

const until = async (origin: string, statusUrl: string, status: string): Promise<JobSnapshot> => {
  for (let attempt = 0; attempt < 500; attempt++) {
    const current = (await (await fetch(`${origin}${statusUrl}`, { headers: { Authorization: 'Bearer owner' } })).json()) as JobSnapshot;
    if (current.status === status) return current;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`The job never reached ${status}.`);
};

describe('job streams over HTTP', () => {
  it('streams every event with increasing ids and ends after completed; Last-Event-ID replays only what follows', async () => {
    const { origin, start } = await serveJobs(async (job) => {
      await job.progress(40);
      await job.emit('warning', { message: 'slow source' });
      return { rows: 2 };
    });
    const snapshot = await start();
    await until(origin, snapshot.status_url, 'completed');
    const whole = await readStream(`${origin}${snapshot.status_url}`, { Authorization: 'Bearer owner' });
    expect(whole.retry).toBe('1000');
    expect(whole.events.map((event) => event.event)).toEqual(['status', 'status', 'progress', 'warning', 'status']);
    expect(whole.events.map((event) => Number(event.id))).toEqual([1, 2, 3, 4, 5]);
    expect(whole.events.at(-1)?.data).toMatchObject({ status: 'completed', progress: 100 });
    const rest = await readStream(`${origin}${snapshot.status_url}`, { Authorization: 'Bearer owner', 'Last-Event-ID': '3' });
    expect(rest.events.map((event) => event.id)).toEqual(['4', '5']);
    const result = await fetch(`${origin}${snapshot.result_url ?? ''}`, { headers: { Authorization: 'Bearer owner' } });
    expect(await result.json()).toEqual({ rows: 2 });
  });

  it('answers another credential 404 job_not_found, exactly as for an id that never existed', async () => {
    const { origin, start } = await serveJobs(async () => 1);
    const snapshot = await start();
    const stranger = await fetch(`${origin}${snapshot.status_url}`, { headers: { Authorization: 'Bearer stranger' } });
    const unknown = await fetch(`${origin}/jobs/00000000-0000-0000-0000-000000000000`, { headers: { Authorization: 'Bearer stranger' } });
    expect([stranger.status, unknown.status]).toEqual([404, 404]);
    expect(stranger.headers.get('content-type')).toBe('application/problem+json');
    const [strangerBody, unknownBody] = [(await stranger.json()) as { code: string }, (await unknown.json()) as { code: string }];
    expect(strangerBody.code).toBe('job_not_found');
    expect(unknownBody.code).toBe('job_not_found');
    const cancel = await fetch(`${origin}${snapshot.cancel_url ?? ''}`, { method: 'POST', headers: { Authorization: 'Bearer stranger' } });
    expect(cancel.status).toBe(404);
  });

  it.each(['__proto__', 'constructor', '..%2F..%2Fetc', 'x'.repeat(300), '%00'])('answers the job id %j with 404 job_not_found', async (jobId) => {
    const { origin } = await serveJobs(async () => 1);
    const answer = await fetch(`${origin}/jobs/${jobId}`, { headers: { Authorization: 'Bearer owner' } });
    expect(answer.status).toBe(404);
    const body = (await answer.json()) as { code: string; detail: string };
    expect(body.code).toBe('job_not_found');
    expect(body.detail.length).toBeLessThan(300);
  });

  it('answers a resolution body of 1 MiB with 413 without reading it all, and keeps the question open', async () => {
    const { origin, start } = await serveJobs(async (job) => job.requestInput({ prompt: 'Which account?', options: ['checking'] }));
    const snapshot = await start();
    const waiting = await until(origin, snapshot.status_url, 'needs_input');
    const url = `${origin}${waiting.pending_input?.resolution_url ?? ''}`;
    const huge = await fetch(url, { method: 'POST', headers: { Authorization: 'Bearer owner', 'Content-Type': 'application/json' }, body: JSON.stringify({ answer: 'x'.repeat(1024 * 1024) }) });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { code: string }).code).toBe('body_too_large');
    const accepted = await fetch(url, { method: 'POST', headers: { Authorization: 'Bearer owner', 'Content-Type': 'application/json' }, body: '{"answer":"checking"}' });
    expect(accepted.status).toBe(200);
    await until(origin, snapshot.status_url, 'completed');
  });

  it('fails a job whose result JSON cannot carry, so the result path never answers a 500 without a body', async () => {
    const { origin, start } = await serveJobs(async () => ({ total: 10n }));
    const snapshot = await start();
    const failed = await until(origin, snapshot.status_url, 'failed');
    expect(failed.error?.message).toMatch(/JSON/);
    const result = await fetch(`${origin}${snapshot.result_url ?? ''}`, { headers: { Authorization: 'Bearer owner' } });
    expect(result.status).toBe(409);
    expect(((await result.json()) as { job_status: string }).job_status).toBe('failed');
  });
});
