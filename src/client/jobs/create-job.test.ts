import { describe, expect, it } from 'vitest';
import { jsonResponse, stageService, type InjectedHandler, type SentRequest } from '../../../test/helpers/injected-guarded-fetch.js';
import { stageManifest } from '../../../test/helpers/stage-manifest.js';
import type { Tool } from '../../manifest/manifest-v0.js';
import type { CallEnvelope } from '../call/call-envelope.js';
import type { FollowUpRequest } from '../call/send-follow-up.js';
import { createMemorySessionStore } from '../policy/session-store.js';
import { createJob } from './create-job.js';
import { resolveFollowJobOptions } from './follow-job-options.js';
import { checkpointKey } from './job-checkpoint.js';
import { JobError } from './job-error.js';
import type { JobEvent } from './job-event.js';

// One job object over an injected send (the call part's follow-up seam), by polling: no socket.

const reportTool = {
  id: 'createReport',
  path: '/reports',
  method: 'POST',
  description: 'Builds a report.',
  temporal_behavior: {
    pattern: 'async_job',
    status_endpoint: '/reports/{job_id}',
    status_response_type: 'json',
    terminal_states: ['completed', 'failed'],
    result_endpoint: '/reports/{job_id}/result',
  },
} as unknown as Tool;

function job(handler: InjectedHandler, tool: Tool = reportTool) {
  const manifest = { ...stageManifest(), tools: [tool] };
  const resolved = { service: stageService(manifest), tool, exposedName: tool.id };
  const sent: SentRequest[] = [];
  const forced: boolean[] = [];
  const send = async (request: FollowUpRequest): Promise<Response> => {
    const entry: SentRequest = { method: request.method, url: request.url, headers: new Headers(request.headers), body: request.body };
    sent.push(entry);
    return handler(entry, sent.length - 1);
  };
  const sessionStore = createMemorySessionStore();
  const audits: string[] = [];
  const followed = new Set<AbortController>();
  const created = createJob({
    location: { resolved, jobId: 'j1', pathArguments: {} },
    started: { ok: true, status: 202, data: { job_id: 'j1' } } as unknown as CallEnvelope,
    state: { jobId: 'j1', status: undefined, terminal: false, lastEventId: undefined, percent: undefined, pendingInput: undefined },
    jobOptions: {},
    followOptions: resolveFollowJobOptions({
      minPollIntervalInMs: 0,
      maxPollIntervalInMs: 5,
      reconnectDelayInMs: 0,
      minReconnectDelayInMs: 0,
      jitterRatio: 0,
      maxConsecutiveFailures: 2,
      maxDurationInMs: 10_000,
    }),
    caller: {
      sendFollowUp: async (_toolId, request) => {
        forced.push(request.forceRefresh === true);
        return send(request);
      },
      followUpEnvelope: async (_toolId, request) => {
        const response = await send(request);
        return { ok: response.ok, status: response.status, data: await response.json() } as unknown as CallEnvelope;
      },
    },
    sessionStore,
    checkpointTimeToLiveInMs: 60_000,
    emitAudit: (event) => audits.push(event.detail ?? ''),
    followed,
  });
  return { job: created, sent, forced, sessionStore, audits, followed };
}

const statuses =
  (...names: string[]): InjectedHandler =>
  (_request, index) =>
    jsonResponse(200, { status: names[Math.min(index, names.length - 1)] });

describe('createJob', () => {
  it('polls the declared status endpoint until a terminal state, yielding each change once', async () => {
    const { job: created, sent } = job(statuses('running', 'running', 'completed'));
    const events: JobEvent[] = [];
    for await (const event of created) events.push(event);
    expect(sent.map((request) => request.url)).toEqual(Array(3).fill('https://api.example.test/v1/reports/j1'));
    expect(events.filter((event) => event.type === 'status').map((event) => (event as { status?: string }).status)).toEqual(['running', 'completed']);
    expect(created.state()).toMatchObject({ status: 'completed', terminal: true });
  });

  it('saves a checkpoint a later process can resume from, and stops being tracked when done', async () => {
    const { job: created, sessionStore, followed } = job(statuses('completed'));
    await created.finished();
    expect(await sessionStore.get(checkpointKey({ origin: 'https://api.example.test', toolId: 'createReport', jobId: 'j1' }))).toMatchObject({
      version: 1,
      jobId: 'j1',
      status: 'completed',
      terminal: true,
    });
    expect(followed.size).toBe(0);
  });

  it('reads the result from result_endpoint after the end', async () => {
    const { job: created, sent } = job((request) => (request.url.endsWith('/result') ? jsonResponse(200, { rows: 3 }) : jsonResponse(200, { status: 'completed' })));
    const envelope = await created.result();
    expect(envelope).toMatchObject({ ok: true, data: { rows: 3 } });
    expect(sent.at(-1)?.url).toBe('https://api.example.test/v1/reports/j1/result');
  });

  it('refreshes the credential once after a 401, then goes on', async () => {
    const { job: created, forced } = job((_request, index) => (index === 0 ? jsonResponse(401, {}) : jsonResponse(200, { status: 'completed' })));
    await created.finished();
    expect(forced).toEqual([false, true]);
  });

  it('gives up with JobError unavailable after maxConsecutiveFailures, naming the option', async () => {
    const { job: created, sent } = job(() => jsonResponse(503, {}));
    const error = await created.finished().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JobError);
    expect(error).toMatchObject({ reason: 'unavailable' });
    expect((error as Error).message).toContain('follow.maxConsecutiveFailures');
    expect(sent).toHaveLength(3);
  });

  it('ends with JobError refused on a status the rule does not retry (a 500, spec 8.3), without looping', async () => {
    const { job: created, sent } = job(() => jsonResponse(500, {}));
    await expect(created.finished()).rejects.toMatchObject({ reason: 'refused', status: 500 });
    expect(sent).toHaveLength(1);
  });

  it('ends with JobError protocol when the status body is not JSON', async () => {
    const { job: created } = job(() => new Response('<html>', { status: 200, headers: { 'content-type': 'application/json' } }));
    await expect(created.finished()).rejects.toMatchObject({ reason: 'protocol' });
  });

  it('refuses result, cancel and respond the tool cannot do, sending nothing', async () => {
    const tool = { ...reportTool, temporal_behavior: { ...reportTool.temporal_behavior!, result_endpoint: undefined } } as unknown as Tool;
    const { job: created, sent } = job(statuses('completed'), tool);
    await expect(created.result()).rejects.toMatchObject({ reason: 'no-endpoint' });
    expect(() => created.cancel()).toThrow(/cancel_endpoint/);
    await expect(created.respond('yes')).rejects.toMatchObject({ reason: 'no-pending-input' });
    expect(sent).toEqual([]);
  });
});
