import { describe, expect, it } from 'vitest';
import { toCallEnvelope, type CallEnvelopeBase, type CallError } from './call-envelope.js';

// The run-time half of the envelope's promise (the type half is call-envelope.test-d.ts): a failure
// always carries an error, a success never does.

const base: CallEnvelopeBase = { status: 200, data: { a: 1 }, text: 'text', meta: { toolId: 'listPayments', attempts: 1, durationInMs: 3, truncated: false } };

const declared: CallError = {
  code: 'conflict',
  status: 409,
  retryable: false,
  retryAfterInMs: null,
  userMessage: 'Already exists.',
  declared: true,
  message: 'Request failed with status code 409 (declared error "conflict"): POST https://api.example.test/v1/payments.',
};

describe('toCallEnvelope', () => {
  it('builds a success with every field kept and no error key at all', () => {
    const envelope = toCallEnvelope({ ...base, ok: true, items: [1], page: { next: null, complete: true } });
    expect(envelope).toEqual({ ...base, ok: true, items: [1], page: { next: null, complete: true } });
    expect('error' in envelope).toBe(false);
  });

  it('drops an error passed with ok true: a success never reports one', () => {
    const envelope = toCallEnvelope({ ...base, ok: true, error: declared });
    expect(envelope.ok).toBe(true);
    expect('error' in envelope).toBe(false);
  });

  it('keeps the error of a failure as given', () => {
    expect(toCallEnvelope({ ...base, status: 409, ok: false, error: declared })).toEqual({ ...base, status: 409, ok: false, error: declared });
  });

  it.each([undefined, null])('gives a failure without an error (%s) a generic HTTP_ERROR with its status, never an error-less failure', (missing) => {
    const envelope = toCallEnvelope({ ...base, status: 502, ok: false, error: missing as unknown as undefined });
    expect(envelope).toMatchObject({ ok: false, status: 502 });
    expect(envelope.error).toEqual({
      code: 'HTTP_ERROR',
      status: 502,
      retryable: false,
      retryAfterInMs: null,
      userMessage: 'The call failed.',
      declared: false,
      message: 'The call failed without details.',
    });
  });
});
