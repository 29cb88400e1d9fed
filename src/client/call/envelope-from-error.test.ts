import { describe, expect, it } from 'vitest';
import { AicapError } from '../../errors/aicap-error.js';
import { createRedactor } from '../policy/create-redactor.js';
import { envelopeFromError } from './envelope-from-error.js';

describe('envelopeFromError', () => {
  it('makes a status-0, non-retryable envelope with a redacted message and the user message of the code', () => {
    const redactor = createRedactor({ secrets: ['tok-SECRET-1'] });
    const envelope = envelopeFromError({ toolId: 't', error: new AicapError('BUDGET_EXCEEDED', 'used up with tok-SECRET-1'), redactor, startedInMs: 10, now: 25, maxTextLength: 1000 });
    expect(envelope).toMatchObject({
      ok: false,
      status: 0,
      error: { code: 'BUDGET_EXCEEDED', retryable: false, message: 'used up with [REDACTED]', userMessage: expect.stringContaining('limit') },
      meta: { attempts: 0, durationInMs: 15 },
    });
    expect(envelope.text).not.toContain('tok-SECRET-1');
  });

  it('wraps an unexpected error as NETWORK_ERROR', () => {
    const envelope = envelopeFromError({ toolId: 't', error: new Error('boom'), redactor: createRedactor(), startedInMs: 0, now: 0, maxTextLength: 1000 });
    expect(envelope.error).toMatchObject({ code: 'NETWORK_ERROR', message: 'boom', userMessage: 'The call could not be made.' });
  });
});
