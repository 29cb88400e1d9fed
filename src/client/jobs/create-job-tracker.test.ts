import { describe, expect, it } from 'vitest';
import { errorOf, thrownBy } from '../../../test/helpers/error-of.js';
import { jsonResponse, stageService } from '../../../test/helpers/injected-guarded-fetch.js';
import { stageManifest } from '../../../test/helpers/stage-manifest.js';
import { AicapError } from '../../errors/aicap-error.js';
import type { Manifest, Tool } from '../../manifest/manifest-v0.js';
import type { CallEnvelope } from '../call/call-envelope.js';
import { createMemorySessionStore, type SessionStore } from '../policy/session-store.js';
import type { DiscoveredService, ResolvedTool } from '../shapes/client-types.js';
import { createJobTracker } from './create-job-tracker.js';
import { checkpointKey } from './job-checkpoint.js';
import type { ClientJobsOptions, JobCheckpoint } from './job.js';

// startJob and resumeJob over an injected caller and session store: which job they make, and every
// way they refuse. No socket; the job objects themselves have their own test (create-job).

function exportTool(overrides: Partial<NonNullable<Tool['temporal_behavior']>> = {}): Tool {
  return {
    id: 'exportData',
    path: '/accounts/{account_id}/exports',
    method: 'POST',
    description: 'Exports an account.',
    parameters: { account_id: { type: 'string', required: true, in: 'path' } },
    temporal_behavior: {
      pattern: 'async_job',
      status_endpoint: '/accounts/{account_id}/exports/{job_id}',
      status_response_type: 'json',
      terminal_states: ['completed', 'failed'],
      cancel_endpoint: '/accounts/{account_id}/exports/{job_id}/cancel',
      ...overrides,
    },
    event_schema: { needs_input: { resolution_endpoint: '/accounts/{account_id}/exports/{job_id}/answer' } },
  } as unknown as Tool;
}

function serviceAt(baseUrl: string, tools: Tool[], namespace = 'api'): DiscoveredService {
  const manifest = { ...stageManifest(), service: { ...stageManifest().service, base_url: baseUrl }, tools } as Manifest;
  return { ...stageService(manifest), namespace };
}

function envelope(status: number, data: unknown, location?: string, error?: { code: string; message: string }): CallEnvelope {
  return {
    ok: status < 400 && error === undefined,
    status,
    data,
    text: '',
    meta: { toolId: 'exportData', attempts: 1, durationInMs: 1, truncated: false, ...(location ? { location } : {}) },
    ...(error ? { error } : {}),
  } as unknown as CallEnvelope;
}

interface Setup {
  services?: DiscoveredService[];
  start?: CallEnvelope;
  options?: ClientJobsOptions;
  sessionStore?: SessionStore;
  status?: string;
}

function tracker(setup: Setup = {}) {
  const services = setup.services ?? [serviceAt('https://api.example.test/v1', [exportTool()])];
  const calls: Array<{ name: string; args: unknown }> = [];
  const followUps: Array<{ name: string; url: string | undefined }> = [];
  const sessionStore = setup.sessionStore ?? createMemorySessionStore();
  const resolveIn = (service: DiscoveredService, id: string): ResolvedTool => {
    const tool = service.manifest.tools.find((entry) => entry.id === id);
    if (!tool) throw new AicapError('TOOL_NOT_FOUND', `No tool "${id}" on ${service.origin}.`);
    return { service, tool, exposedName: `${service.namespace}__${id}` };
  };
  const created = createJobTracker(setup.options, {
    caller: {
      call: async (name, args) => {
        calls.push({ name, args });
        return setup.start ?? envelope(202, { job_id: 'j1', status: 'queued' });
      },
      sendFollowUp: async (name, request) => {
        followUps.push({ name, url: request.url });
        return jsonResponse(200, { status: setup.status ?? 'running' });
      },
      followUpEnvelope: async (name, request) => {
        followUps.push({ name, url: request.url });
        return envelope(200, {});
      },
    },
    resolveTool: (name) => {
      const [namespace, id] = name.includes('__') ? name.split('__') : [undefined, name];
      const service = services.find((entry) => (namespace === undefined || entry.namespace === namespace) && entry.manifest.tools.some((tool) => tool.id === id));
      if (!service) throw new AicapError('TOOL_NOT_FOUND', `No tool "${name}".`);
      return resolveIn(service, id!);
    },
    resolveToolAt: (origin, id) =>
      resolveIn(
        services.find((entry) => entry.origin === origin)!,
        id,
      ),
    services: () => services,
    sessionStore,
    emitAudit: () => {},
  });
  return { tracker: created, calls, followUps, sessionStore, services };
}

function checkpoint(overrides: Partial<JobCheckpoint> = {}): JobCheckpoint {
  return {
    version: 1,
    toolId: 'exportData',
    origin: 'https://api.example.test',
    jobId: 'j9',
    lastEventId: '12',
    status: 'running',
    terminal: false,
    percent: 30,
    pendingInput: undefined,
    pathArguments: { account_id: 'acc_1' },
    ...overrides,
  };
}

describe('createJobTracker: options', () => {
  it.each([
    [{ checkpointTimeToLiveInMs: 0 }, 'jobs.checkpointTimeToLiveInMs'],
    [{ checkpointTimeToLiveInMs: 1.5 }, 'jobs.checkpointTimeToLiveInMs'],
    [{ follow: { idleTimeoutInMs: -1 } }, 'jobs.follow.idleTimeoutInMs'],
    [{ follow: { maxDurationInMs: 3_000_000_000 } }, 'jobs.follow.maxDurationInMs'],
  ])('refuses %o at creation with INVALID_OPTION naming %s', (options, name) => {
    const error = thrownBy(() => tracker({ options }));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain(name);
  });
});

describe('createJobTracker: startJob', () => {
  it('starts the job with an ordinary call and takes its id and first status from the body', async () => {
    const run = tracker();
    const job = await run.tracker.startJob('exportData', { account_id: 'acc_1' });
    expect(run.calls).toEqual([{ name: 'api__exportData', args: { account_id: 'acc_1' } }]);
    expect(job.id).toBe('j1');
    expect(job.state()).toMatchObject({ jobId: 'j1', status: 'queued', terminal: false });
    expect(job.checkpoint()).toMatchObject({ origin: 'https://api.example.test', toolId: 'exportData', pathArguments: { account_id: 'acc_1' } });
  });

  it.each([
    ['a dotted job_id_field', { job_id_field: 'job.id' }, envelope(202, { job: { id: 77 } }), '77'],
    ['a Location at the status endpoint', {}, envelope(202, {}, '/v1/accounts/acc_1/exports/exp_5'), 'exp_5'],
  ])('finds the job id in %s', async (_case, temporal, start, jobId) => {
    const job = await tracker({ services: [serviceAt('https://api.example.test/v1', [exportTool(temporal)])], start }).tracker.startJob('exportData', { account_id: 'acc_1' });
    expect(job.id).toBe(jobId);
  });

  it('knows at once a job the start response already reports finished', async () => {
    const job = await tracker({ start: envelope(200, { job_id: 'j1', status: 'completed' }) }).tracker.startJob('exportData', { account_id: 'acc_1' });
    expect(job.state()).toMatchObject({ status: 'completed', terminal: true });
  });

  it.each([
    ['a body without the id and no Location', envelope(202, { id: 'j1' })],
    ['a Location on another origin', envelope(202, {}, 'https://evil.example/v1/accounts/acc_1/exports/j1')],
    ['a Location elsewhere on the API', envelope(202, {}, '/v1/other/j1')],
    ['a job id that is a dot segment', envelope(202, { job_id: '..' })],
    ['a job id of 300 characters', envelope(202, { job_id: 'x'.repeat(300) })],
    ['a job id that is an object', envelope(202, { job_id: { id: 'j1' } })],
  ])('refuses %s with a protocol JobError', async (_case, start) => {
    const error = await errorOf(tracker({ start }).tracker.startJob('exportData', { account_id: 'acc_1' }));
    expect(error).toMatchObject({ name: 'JobError', reason: 'protocol' });
  });

  it('names the field and the status endpoint it looked for when the start response names no job', async () => {
    const error = await errorOf(tracker({ start: envelope(202, {}) }).tracker.startJob('exportData', { account_id: 'acc_1' }));
    expect(error.message).toContain('`job_id`');
    expect(error.message).toContain('/accounts/{account_id}/exports/{job_id}');
  });

  it('turns a failed start into not-started with the envelope to hand to the model', async () => {
    const start = envelope(422, { detail: 'bad period' }, undefined, { code: 'HTTP_422', message: 'Unprocessable' });
    const error = await errorOf(tracker({ start }).tracker.startJob('exportData', { account_id: 'acc_1' }));
    expect(error).toMatchObject({ reason: 'not-started', status: 422, envelope: start });
    expect(error.message).toContain('error.envelope');
  });

  it('warns that a start without a complete answer may have started the job, and that starting again may run it twice', async () => {
    const start = envelope(0, undefined, undefined, { code: 'NETWORK_ERROR', message: 'socket hang up' });
    const error = await errorOf(tracker({ start }).tracker.startJob('exportData', { account_id: 'acc_1' }));
    expect(error).toMatchObject({ reason: 'not-started', status: undefined });
    expect(error.message).toContain('may run it twice');
  });

  it('refuses a tool without temporal_behavior as not-async, calling nothing', async () => {
    const plain = { ...exportTool(), id: 'ping', temporal_behavior: undefined } as unknown as Tool;
    const run = tracker({ services: [serviceAt('https://api.example.test/v1', [plain])] });
    const error = await errorOf(run.tracker.startJob('ping'));
    expect(error).toMatchObject({ reason: 'not-async' });
    expect(error.message).toContain('client.call');
    expect(run.calls).toEqual([]);
  });

  it('checks per-job follow options before starting anything, naming them as the caller wrote them', async () => {
    const run = tracker();
    const error = await errorOf(run.tracker.startJob('exportData', { account_id: 'acc_1' }, { follow: { jitterRatio: 2 } }));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain('follow.jitterRatio');
    expect(run.calls).toEqual([]);
  });

  it("sends the job's follow-ups to its own service's tool, even when another service declares the same id", async () => {
    const run = tracker({
      services: [serviceAt('https://other.example.test/v1', [exportTool()], 'other'), serviceAt('https://api.example.test/v1', [exportTool()], 'api')],
    });
    const job = await run.tracker.startJob('api__exportData', { account_id: 'acc_1' });
    await job.cancel();
    expect(run.followUps).toEqual([{ name: 'api__exportData', url: 'https://api.example.test/v1/accounts/acc_1/exports/j1/cancel' }]);
  });

  it('close() stops following every job with ABORTED; a job that never finishes does not keep the caller waiting', async () => {
    const run = tracker({ options: { follow: { minPollIntervalInMs: 1, maxPollIntervalInMs: 5 } } });
    const job = await run.tracker.startJob('exportData', { account_id: 'acc_1' });
    const finished = job.finished();
    await expect.poll(() => run.followUps.length).toBeGreaterThan(0);
    run.tracker.close();
    expect((await errorOf(finished)).code).toBe('ABORTED');
  });
});

describe('createJobTracker: resumeJob', () => {
  it("resumes from a checkpoint object with its state, path arguments and pending question (resolved on the job's own service)", async () => {
    const run = tracker();
    const job = await run.tracker.resumeJob(checkpoint({ status: 'needs_input', pendingInput: { input_id: 'q1', prompt: 'Proceed?', options: ['yes'] } }));
    expect(job.id).toBe('j9');
    expect(job.started).toMatchObject({ ok: true, status: 202 });
    expect(job.state()).toMatchObject({ status: 'needs_input', lastEventId: '12', percent: 30 });
    expect(job.state().pendingInput).toMatchObject({ prompt: 'Proceed?', options: ['yes'], resolutionUrl: 'https://api.example.test/v1/accounts/acc_1/exports/j9/answer' });
  });

  it('resumes a job by id from the checkpoint the session store holds for it', async () => {
    const run = tracker();
    await run.sessionStore.set(checkpointKey(checkpoint()), checkpoint());
    expect((await run.tracker.resumeJob('j9')).state()).toMatchObject({ jobId: 'j9', percent: 30 });
  });

  it.each([
    ['no checkpoint in the store', undefined, 'No checkpoint for job "j9"'],
    ['a damaged record', { version: 1, jobId: 'j9' }, 'No checkpoint for job "j9"'],
    ["another job's checkpoint stored under this key", checkpoint({ jobId: 'j10' }), 'No checkpoint for job "j9"'],
    ["another service's checkpoint stored under this key", checkpoint({ origin: 'https://evil.example' }), 'No checkpoint for job "j9"'],
  ])('refuses %s with no-checkpoint, saying how to resume', async (_case, stored, what) => {
    const run = tracker();
    if (stored !== undefined) await run.sessionStore.set(checkpointKey(checkpoint()), stored);
    const error = await errorOf(run.tracker.resumeJob('j9'));
    expect(error).toMatchObject({ reason: 'no-checkpoint', jobId: 'j9' });
    expect(error.message).toContain(what);
    expect(error.message).toContain('session.store');
  });

  it('refuses an object that is not a version 1 checkpoint', async () => {
    const error = await errorOf(tracker().tracker.resumeJob({ ...checkpoint(), version: 2 } as unknown as JobCheckpoint));
    expect(error).toMatchObject({ reason: 'no-checkpoint', jobId: undefined });
    expect(error.message).toContain('not a version 1 job checkpoint');
  });

  it('cuts a hostile job id in the message', async () => {
    const error = await errorOf(tracker().tracker.resumeJob('j'.repeat(10_000)));
    expect(error.message.length).toBeLessThan(600);
  });

  it('refuses a job id two services hold checkpoints for, and resumes the one `tool` names', async () => {
    const services = [serviceAt('https://api.example.test/v1', [exportTool()], 'api'), serviceAt('https://other.example.test/v1', [exportTool()], 'other')];
    const run = tracker({ services });
    await run.sessionStore.set(checkpointKey(checkpoint()), checkpoint());
    await run.sessionStore.set(checkpointKey(checkpoint({ origin: 'https://other.example.test' })), checkpoint({ origin: 'https://other.example.test', percent: 80 }));
    const error = await errorOf(run.tracker.resumeJob('j9'));
    expect(error).toMatchObject({ reason: 'no-checkpoint' });
    expect(error.message).toContain('"exportData" on https://api.example.test, "exportData" on https://other.example.test');
    expect((await run.tracker.resumeJob('j9', { tool: 'other__exportData' })).state().percent).toBe(80);
  });

  it('asks for `tool` rather than making more than 64 store lookups', async () => {
    const tools = Array.from({ length: 65 }, (_, index) => ({ ...exportTool(), id: `export${index}` }) as Tool);
    let lookups = 0;
    const store = createMemorySessionStore();
    const counting: SessionStore = { ...store, get: (key) => (lookups++, store.get(key)) };
    const error = await errorOf(tracker({ services: [serviceAt('https://api.example.test/v1', tools)], sessionStore: counting }).tracker.resumeJob('j9'));
    expect(error.message).toContain('65 async tools');
    expect(error.message).toContain('resumeJob("j9", { tool })');
    expect(lookups).toBe(0);
  });
});
