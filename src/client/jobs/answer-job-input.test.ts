import { describe, expect, it, vi } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import type { CallEnvelope } from '../call/call-envelope.js';
import { InvalidArgumentsError } from '../call/invalid-arguments-error.js';
import { createJobAnswerer, type JobAnswererInput } from './answer-job-input.js';
import { JobError } from './job-error.js';
import type { JobNeedsInputEvent } from './job-event.js';

// Answering a job's question over an injected caller: what is sent, what is refused before sending,
// and how an automatic answer is retried (bounded) or given up on.

const RESOLUTION_URL = 'https://api.example.test/v1/jobs/j1/respond';

interface SentAnswer {
  url: string | undefined;
  body: unknown;
}

function envelope(status: number, code?: string): CallEnvelope {
  if (status >= 200 && status < 300) return { ok: true, status, data: null, text: '', meta: {} } as unknown as CallEnvelope;
  return { ok: false, status, data: null, text: '', meta: {}, error: { code: code ?? `HTTP_${status}`, message: `answered ${status}` } } as unknown as CallEnvelope;
}

function question(overrides: Partial<JobNeedsInputEvent> = {}): JobNeedsInputEvent {
  return {
    type: 'needs_input',
    id: '4',
    name: 'needs_input',
    source: 'stream',
    data: { input_id: 'q1', prompt: 'Approve the refund?', options: ['yes', 'no'] },
    prompt: 'Approve the refund?',
    options: ['yes', 'no'],
    resolutionUrl: RESOLUTION_URL,
    ...overrides,
  };
}

/** An answerer whose follow-up calls answer with `statuses` in turn (the last repeats). */
function answerer(statuses: Array<number | [number, string]>, settings: Partial<JobAnswererInput> = {}) {
  const sent: SentAnswer[] = [];
  const failures: unknown[] = [];
  const created = createJobAnswerer({
    caller: {
      followUpEnvelope: async (_toolId, request) => {
        sent.push({ url: request.url, body: JSON.parse(String(request.body)) });
        const next = statuses[Math.min(sent.length - 1, statuses.length - 1)]!;
        return Array.isArray(next) ? envelope(next[0], next[1]) : envelope(next);
      },
    },
    toolId: 'refund',
    jobId: 'j1',
    handler: undefined,
    retryDelayInMs: 1,
    signal: new AbortController().signal,
    onFailure: (error) => void failures.push(error),
    ...settings,
  });
  return { answerer: created, sent, failures };
}

describe('createJobAnswerer: send', () => {
  it('POSTs the input id and the answer to the resolution endpoint', async () => {
    const run = answerer([200]);
    expect((await run.answerer.send(question(), 'yes')).ok).toBe(true);
    expect(run.sent).toEqual([{ url: RESOLUTION_URL, body: { input_id: 'q1', answer: 'yes' } }]);
  });

  it('leaves input_id out when the question carries none, and sends any answer when no options are offered', async () => {
    const run = answerer([200]);
    await run.answerer.send(question({ data: 'free text', options: undefined }), { note: 'fine' });
    expect(run.sent[0]!.body).toEqual({ answer: { note: 'fine' } });
  });

  it.each([
    ['a value not offered', 'maybe'],
    ['an offered value of another type', ['yes']],
    ['null', null],
  ])('refuses %s with INVALID_ARGUMENTS at /answer, sending nothing', async (_case, answer) => {
    const run = answerer([200]);
    const error = await errorOf(run.answerer.send(question(), answer));
    expect(error).toBeInstanceOf(InvalidArgumentsError);
    expect((error as InvalidArgumentsError).problems).toMatchObject([{ pointer: '/answer', rule: 'enum' }]);
    expect(error.message).toContain('["yes","no"]');
    expect(run.sent).toEqual([]);
  });

  it('matches structured options by value', async () => {
    const run = answerer([200]);
    await run.answerer.send(question({ options: [{ id: 1 }, { id: 2 }] }), { id: 2 });
    expect(run.sent[0]!.body).toMatchObject({ answer: { id: 2 } });
  });

  it('cuts a huge list of options in the message', async () => {
    const options = Array.from({ length: 5000 }, (_, index) => `option-${index}`);
    const error = await errorOf(answerer([200]).answerer.send(question({ options }), 'none of them'));
    expect(error.message.length).toBeLessThan(1000);
  });

  it('refuses a question without a resolution endpoint with a JobError naming the manifest field', async () => {
    const run = answerer([200]);
    const error = await errorOf(run.answerer.send(question({ resolutionUrl: undefined }), 'yes'));
    expect(error).toMatchObject({ reason: 'no-endpoint', jobId: 'j1' });
    expect(error.message).toContain('event_schema.needs_input.resolution_endpoint');
    expect(run.sent).toEqual([]);
  });
});

describe('createJobAnswerer: answerAutomatically', () => {
  it('does nothing without a handler', async () => {
    const run = answerer([200]);
    run.answerer.answerAutomatically(question());
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(run.sent).toEqual([]);
  });

  it.each([
    ['a success', [200], 1],
    ['a 409 (an earlier delivery landed)', [409], 1],
    ['a 503 then a success', [503, 200], 2],
    ['a 408 and a 429 then a success', [408, 429, 200], 3],
    ['a 502 and a 504 then a success', [502, 504, 200], 3],
    ['a network error then a timeout then a success', [[0, 'NETWORK_ERROR'], [0, 'TIMEOUT'], 200] as Array<number | [number, string]>, 3],
  ])("delivers the handler's answer: %s", async (_case, statuses, deliveries) => {
    const run = answerer(statuses, { handler: (event) => event.options?.[1] });
    run.answerer.answerAutomatically(question());
    await vi.waitFor(() => expect(run.sent).toHaveLength(deliveries));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(run.sent).toHaveLength(deliveries);
    expect(run.sent.every((answer) => (answer.body as { answer: unknown }).answer === 'no')).toBe(true);
    expect(run.failures).toEqual([]);
  });

  it('gives up after three deliveries that fail in transit, stopping following with a JobError that says what to do', async () => {
    const run = answerer([503], { handler: () => 'yes' });
    run.answerer.answerAutomatically(question());
    await vi.waitFor(() => expect(run.failures).toHaveLength(1));
    expect(run.sent).toHaveLength(3);
    const error = run.failures[0] as JobError;
    expect(error).toBeInstanceOf(JobError);
    expect(error).toMatchObject({ reason: 'unavailable', status: 503, jobId: 'j1' });
    expect(error.message).toContain('not delivered after 3 attempts');
    expect(error.message).toContain('job.respond');
  });

  it("quotes the server's question in the error cut and escaped: a huge or control-laden prompt never floods a terminal", async () => {
    const prompt = `\u001b[2J${'Approve? '.repeat(100_000)}`;
    const run = answerer([400], { handler: () => 'yes' });
    run.answerer.answerAutomatically(question({ prompt }));
    await vi.waitFor(() => expect(run.failures).toHaveLength(1));
    const message = (run.failures[0] as JobError).message;
    expect(message.length).toBeLessThan(1000);
    expect(message).not.toContain('\u001b');
    expect(message).toContain('\\u001b[2J');
  });

  // Which answers are worth another delivery is the call path's rule (decideRetry's isRetryableStatus): 408, 429,
  // 502-504 and no response are; a 500 or 501 is the server saying it failed at this request, as for a call.
  it.each([400, 403, 422, 500, 501])('stops at once on a %i refusal, with the envelope kept', async (status) => {
    const run = answerer([status], { handler: () => 'yes' });
    run.answerer.answerAutomatically(question());
    await vi.waitFor(() => expect(run.failures).toHaveLength(1));
    expect(run.sent).toHaveLength(1);
    expect(run.failures[0]).toMatchObject({ reason: 'refused', status, envelope: { status } });
  });

  it('stops following with the error of a handler that throws, or answers with a value not offered', async () => {
    const thrown = new Error('no operator on duty');
    const run = answerer([200], {
      handler: () => {
        throw thrown;
      },
    });
    run.answerer.answerAutomatically(question());
    await vi.waitFor(() => expect(run.failures).toEqual([thrown]));
    const offering = answerer([200], { handler: async () => 'maybe' });
    offering.answerer.answerAutomatically(question());
    await vi.waitFor(() => expect(offering.failures).toHaveLength(1));
    expect(offering.failures[0]).toBeInstanceOf(InvalidArgumentsError);
    expect(run.sent).toEqual([]);
  });

  it('reports nothing once the job was stopped: the retry wait ends with the signal', async () => {
    const controller = new AbortController();
    const run = answerer([503], { handler: () => 'yes', signal: controller.signal, retryDelayInMs: 60_000 });
    run.answerer.answerAutomatically(question());
    await vi.waitFor(() => expect(run.sent).toHaveLength(1));
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(run.failures).toEqual([]);
    expect(run.sent).toHaveLength(1);
  });
});
