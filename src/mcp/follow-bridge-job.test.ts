import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { Client, Job } from '../client/index.js';
import { JobError } from '../client/index.js';
import type { BridgeRequestState } from './bridge-request-state.js';
import { followBridgeJob } from './follow-bridge-job.js';
import type { BridgeTool } from './list-bridge-tools.js';
import type { McpSdk } from './load-mcp-sdk.js';

// The bridge's job path alone: a stand-in job (a list of events), client and SDK. No host, no socket.

type Event = Record<string, unknown> & { type: string };

const sdk = {
  inputResponse: (responses: Record<string, unknown> | undefined, key: string) => {
    const answer = responses?.[key] as { action: string; content?: Record<string, unknown> } | undefined;
    return answer === undefined ? { kind: 'absent' } : { kind: 'elicit', ...answer };
  },
  inputRequired: Object.assign((result: unknown) => ({ resultType: 'input_required', ...(result as object) }), { elicit: (question: unknown) => ({ method: 'elicitation/create', params: question }) }),
} as unknown as McpSdk;

const bridgeTool = {
  tool: {
    name: 'payments__export_report',
    namespace: 'payments',
    origin: 'https://api.example.com',
    readOnly: false,
    definition: { id: 'export_report', temporal_behavior: { mode: 'async_job', status_endpoint: '/jobs/{job_id}', result_endpoint: '/jobs/{job_id}/result' } },
  },
  definition: { name: 'payments__export_report', title: 'Export report', inputSchema: { type: 'object' } },
  structure: 'object',
} as unknown as BridgeTool;

function fakeJob(events: Event[], options: { id?: string; failAfter?: number; respond?: (answer: unknown) => { ok: boolean; error?: { userMessage: string } } } = {}) {
  const responded: unknown[] = [];
  const job = {
    id: options.id ?? 'job/1 2',
    async *[Symbol.asyncIterator]() {
      for (const [index, event] of events.entries()) {
        if (options.failAfter === index) throw new JobError({ reason: 'unavailable', message: 'the stream ended early' });
        yield event;
      }
    },
    state: () => ({ status: 'running', percent: 40 }),
    checkpoint: () => ({ jobId: options.id ?? 'job/1 2', pendingInput: { question: 'format?' } }),
    respond: async (answer: unknown) => (responded.push(answer), options.respond?.(answer) ?? { ok: true }),
    result: async () => ({ ok: true, status: 200, text: '<untrusted-data source="api">\n{"rows":3}\n</untrusted-data>', meta: {} }),
  };
  return { job: job as unknown as Job, responded };
}

function harness(job: Job, options: { hostElicits?: boolean; state?: BridgeRequestState; answer?: unknown; progressToken?: string; startError?: unknown } = {}) {
  const notified: unknown[] = [];
  const minted: BridgeRequestState[] = [];
  const started: unknown[] = [];
  const client = {
    startJob: async (name: string, args: unknown) => {
      started.push([name, args]);
      if (options.startError) throw options.startError;
      return job;
    },
    resumeJob: async () => job,
    services: () => [{ namespace: 'payments', manifest: { service: { base_url: 'https://api.example.com/v1' } } }],
  } as unknown as Client;
  const context = {
    mcpReq: {
      requestState: () => options.state,
      inputResponses: options.answer === undefined ? undefined : { job_input: options.answer },
      signal: new AbortController().signal,
      _meta: options.progressToken === undefined ? undefined : { progressToken: options.progressToken },
      notify: async (notification: unknown) => void notified.push(notification),
    },
  } as unknown as ServerContext;
  const run = () =>
    followBridgeJob({
      client,
      sdk,
      bridgeTool,
      arguments: { month: '2026-11' },
      context,
      approve: undefined,
      hostElicits: options.hostElicits ?? true,
      mintState: async (state) => (minted.push(state), 'sealed-state'),
    });
  return { run, notified, minted, started };
}

const textOf = (result: unknown): string => ((result as { content: Array<{ text: string }> }).content ?? []).map((part) => part.text).join('\n');

describe('followBridgeJob', () => {
  it('follows a job to its result, turning progress into notifications when the host sent a token', async () => {
    const { job } = fakeJob([{ type: 'progress', percent: 50 }, { type: 'progress' }, { type: 'status', terminal: true }]);
    const { run, notified, started } = harness(job, { progressToken: 'tok' });
    const result = await run();
    expect(started).toEqual([['payments__export_report', { month: '2026-11' }]]);
    expect(notified).toEqual([{ method: 'notifications/progress', params: { progressToken: 'tok', progress: 50, total: 100 } }]);
    expect(result).toMatchObject({ isError: false, structuredContent: { rows: 3 } });
  });

  it('sends no progress notification without a progress token', async () => {
    const { job } = fakeJob([{ type: 'progress', percent: 10 }]);
    const { run, notified } = harness(job);
    await run();
    expect(notified).toEqual([]);
  });

  it('asks the user through elicitation when the job needs input, sealing the checkpoint in requestState', async () => {
    const { job } = fakeJob([{ type: 'needs_input', prompt: 'Which format?', options: ['csv', 'pdf', 3], data: { question: 'format?' } }]);
    const { run, minted } = harness(job);
    const result = (await run()) as unknown as { resultType: string; inputRequests: Record<string, { params: { message: string; requestedSchema: unknown } }>; requestState: string };
    expect(result.resultType).toBe('input_required');
    expect(result.requestState).toBe('sealed-state');
    expect(minted).toEqual([{ kind: 'job', checkpoint: { jobId: 'job/1 2', pendingInput: { question: 'format?' } } }]);
    expect(result.inputRequests['job_input']?.params.message).toBe('"Export report" asks: Which format?');
    expect(result.inputRequests['job_input']?.params.requestedSchema).toEqual({
      type: 'object',
      properties: { answer: { type: 'string', title: 'Answer', enum: ['csv', 'pdf'] } },
      required: ['answer'],
    });
  });

  it("bounds the API's question and makes its control characters visible, keeping only short string options", async () => {
    const prompt = `Pick one\u001b[2J\u202e${'x'.repeat(5_000)}`;
    const options = ['csv', 'p\u0007df', 'y'.repeat(201), '', ...Array.from({ length: 60 }, (_, index) => `o${index}`)];
    const asked = (await harness(fakeJob([{ type: 'needs_input', prompt, options }]).job).run()) as unknown as {
      inputRequests: Record<string, { params: { message: string; requestedSchema: { properties: { answer: { enum?: string[] } } } } }>;
    };
    const { message, requestedSchema } = asked.inputRequests['job_input']!.params;
    // eslint-disable-next-line no-control-regex -- no control character may reach the user's screen
    expect(message).not.toMatch(/[\u0000-\u001f\u202e]/);
    expect(message).toContain('\\u001b[2J\\u202e');
    expect(message.length).toBeLessThan(1_100);
    const offered = requestedSchema.properties.answer.enum!;
    expect(offered).toHaveLength(50);
    expect(offered.slice(0, 2)).toEqual(['csv', 'p\\u0007df']);
    const handled = await harness(fakeJob([{ type: 'needs_input', prompt, options }]).job, { hostElicits: false }).run();
    // eslint-disable-next-line no-control-regex -- line feeds are the handle's own; no other control character may reach the model
    expect(textOf(handled)).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
    expect(textOf(handled).length).toBeLessThan(3_000);
  });

  it('gives a host that cannot elicit a resumable handle with absolute, encoded URLs', async () => {
    const { job } = fakeJob([{ type: 'needs_input', prompt: 'Which format?', options: ['csv'] }]);
    const { run } = harness(job, { hostElicits: false });
    const result = await run();
    expect(result).toMatchObject({
      isError: false,
      structuredContent: {
        job: { job_id: 'job/1 2', status: 'running', percent: 40, status_url: 'https://api.example.com/v1/jobs/job%2F1%202', result_url: 'https://api.example.com/v1/jobs/job%2F1%202/result' },
      },
    });
    expect(textOf(result)).toContain('This host cannot ask the user');
    expect(textOf(result)).toContain('resumeJob("job/1 2"');
  });

  it('on the retry, delivers the accepted answer and does not ask the replayed question again', async () => {
    const { job, responded } = fakeJob([
      { type: 'needs_input', prompt: 'Which format?', data: { question: 'format?' } },
      { type: 'status', terminal: true },
    ]);
    const state: BridgeRequestState = { kind: 'job', checkpoint: { jobId: 'job/1 2', pendingInput: { question: 'format?' } } } as unknown as BridgeRequestState;
    const { run } = harness(job, { state, answer: { action: 'accept', content: { answer: 'csv' } } });
    const result = await run();
    expect(responded).toEqual(['csv']);
    expect(result).toMatchObject({ isError: false, structuredContent: { rows: 3 } });
  });

  it('returns the handle when the user declines, or the API refuses the answer', async () => {
    const state = { kind: 'job', checkpoint: { jobId: 'job/1 2', pendingInput: {} } } as unknown as BridgeRequestState;
    const declined = harness(fakeJob([]).job, { state, answer: { action: 'decline' } });
    expect(textOf(await declined.run())).toContain('did not answer its question');
    const refused = harness(fakeJob([], { respond: () => ({ ok: false, error: { userMessage: 'answer must be csv or pdf' } }) }).job, {
      state,
      answer: { action: 'accept', content: { answer: 'x' } },
    });
    expect(textOf(await refused.run())).toContain('The answer was refused: answer must be csv or pdf');
  });

  it('turns a stream that fails into the handle instead of an error', async () => {
    const { job } = fakeJob(
      [
        { type: 'progress', percent: 1 },
        { type: 'progress', percent: 2 },
      ],
      { failAfter: 1 },
    );
    const result = await harness(job).run();
    expect(result).toMatchObject({ isError: false });
    expect(textOf(result)).toContain('Following it stopped: the stream ended early');
  });

  it('rethrows an error that is not a job error', async () => {
    const { job } = fakeJob([]);
    await expect(harness(job, { startError: new TypeError('boom') }).run()).rejects.toThrow('boom');
  });
});
