import { describe, expect, it } from 'vitest';
import { AicapError } from '../../errors/aicap-error.js';
import { worded, optionTerm } from '../../errors/message-term.js';
import type { CallEnvelope } from '../call/call-envelope.js';
import { JobError } from './job-error.js';

describe('JobError', () => {
  it('is a JOB_FAILED AicapError carrying the reason, status, job, envelope and cause', () => {
    const cause = new Error('socket hang up');
    const envelope = { ok: false, status: 503 } as CallEnvelope;
    const error = new JobError({ reason: 'unavailable', message: 'Gave up.', status: 503, jobId: 'j1', envelope, cause });
    expect(AicapError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ name: 'JobError', code: 'JOB_FAILED', reason: 'unavailable', status: 503, jobId: 'j1', envelope, message: 'Gave up.' });
    expect(error.cause).toBe(cause);
  });

  it('leaves what it was not given undefined', () => {
    expect(new JobError({ reason: 'no-pending-input', message: 'Nothing to answer.' })).toMatchObject({ status: undefined, jobId: undefined, envelope: undefined });
  });

  it('keeps the option a worded message names, so each front end can name it in its own vocabulary', () => {
    const error = new JobError({ reason: 'timeout', message: worded`Stopped; raise ${optionTerm('jobs.follow.maxDurationInMs')}.` });
    expect(error.message).toContain('jobs.follow.maxDurationInMs');
    expect(error.terms).toEqual([expect.objectContaining({ kind: 'option', option: 'jobs.follow.maxDurationInMs' })]);
  });
});
