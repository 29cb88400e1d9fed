import { describe, expect, it } from 'vitest';
import type { Job } from '../client/index.js';
import { createInspectorJobs } from './inspector-jobs.js';

// A stand-in job: events released one by one by the test, so ordering is controlled without timers.
function controlledJob(options: { failWith?: Error } = {}) {
  const queue: unknown[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  const job = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (queue.length > 0) yield queue.shift();
        if (finished) {
          if (options.failWith) throw options.failWith;
          return;
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    result: async () => ({ ok: true, text: 'report ready, token=s3cret' }),
    respond: async (answer: unknown) => ({ delivered: answer, token: 's3cret' }),
  } as unknown as Job;
  return {
    job,
    push(event: unknown) {
      queue.push(event);
      wake?.();
    },
    finish() {
      finished = true;
      wake?.();
    },
  };
}

const redact = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replaceAll('s3cret', '[REDACTED]'));
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createInspectorJobs', () => {
  it('numbers jobs in this run and refuses unknown ids', async () => {
    const jobs = createInspectorJobs(redact);
    expect(jobs.follow(controlledJob().job)).toBe('job-1');
    expect(jobs.follow(controlledJob().job)).toBe('job-2');
    expect(jobs.size()).toBe(2);
    expect(jobs.subscribe('job-9', () => undefined)).toBeUndefined();
    await expect(jobs.respond('job-9', 'x')).rejects.toMatchObject({ status: 404 });
  });

  it('replays what a late page missed, then delivers new events, redacted, ending with the result', async () => {
    const jobs = createInspectorJobs(redact);
    const controlled = controlledJob();
    const id = jobs.follow(controlled.job);
    controlled.push({ type: 'progress', percent: 10, note: 's3cret' });
    await settle();
    const seen: unknown[] = [];
    jobs.subscribe(id, (event) => seen.push(event));
    expect(seen).toEqual([{ kind: 'event', event: { type: 'progress', percent: 10, note: '[REDACTED]' } }]);
    controlled.push({ type: 'progress', percent: 90 });
    controlled.finish();
    await settle();
    expect(seen.slice(1)).toEqual([{ kind: 'event', event: { type: 'progress', percent: 90 } }, { kind: 'result', envelope: { ok: true, text: 'report ready, token=[REDACTED]' } }, { kind: 'end' }]);
  });

  it('fans events out to every page, and stops delivering to a page that left', async () => {
    const jobs = createInspectorJobs(redact);
    const controlled = controlledJob();
    const id = jobs.follow(controlled.job);
    const first: unknown[] = [];
    const second: unknown[] = [];
    const leave = jobs.subscribe(id, (event) => first.push(event));
    jobs.subscribe(id, (event) => second.push(event));
    controlled.push({ n: 1 });
    await settle();
    leave?.();
    controlled.push({ n: 2 });
    await settle();
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(2);
  });

  it('reports a failed job as an error event with its code, then ends; a page arriving after the end gets it all', async () => {
    const jobs = createInspectorJobs(redact);
    const controlled = controlledJob({ failWith: Object.assign(new Error('stream cut'), { code: 'JOB_FAILED' }) });
    const id = jobs.follow(controlled.job);
    controlled.finish();
    await settle();
    const seen: unknown[] = [];
    const unsubscribe = jobs.subscribe(id, (event) => seen.push(event));
    expect(seen).toEqual([{ kind: 'error', code: 'JOB_FAILED', message: 'stream cut' }, { kind: 'end' }]);
    expect(() => unsubscribe?.()).not.toThrow();
  });

  it('redacts the error message too: it may quote a URL holding a typed credential', async () => {
    const jobs = createInspectorJobs(redact);
    const controlled = controlledJob({ failWith: new Error('GET https://api.example.com/jobs/1?token=s3cret answered 500') });
    const id = jobs.follow(controlled.job);
    controlled.finish();
    await settle();
    const seen: unknown[] = [];
    jobs.subscribe(id, (event) => seen.push(event));
    expect(JSON.stringify(seen)).not.toContain('s3cret');
  });

  it('redacts the answer the job gives back', async () => {
    const jobs = createInspectorJobs(redact);
    const id = jobs.follow(controlledJob().job);
    expect(await jobs.respond(id, 'csv')).toEqual({ delivered: 'csv', token: '[REDACTED]' });
  });
});
