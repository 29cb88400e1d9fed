import { describe, expect, it } from 'vitest';
import { createRedactor } from './create-redactor.js';

describe('createRedactor', () => {
  it('replaces redacted parameters at any depth, case-insensitively, without touching the input', () => {
    const redactor = createRedactor({ parameterNames: ['ssn', 'Account_ID'] });
    const input = { account_id: 'acc-1', nested: { SSN: '123-45-6789', keep: 1 }, list: [{ ssn: 'x-1234' }] };
    expect(redactor.arguments(input)).toEqual({ account_id: '[REDACTED]', nested: { SSN: '[REDACTED]', keep: 1 }, list: [{ ssn: '[REDACTED]' }] });
    expect(input.account_id).toBe('acc-1');
  });

  it('learns redacted values and removes them from free text, plain and URL-encoded', () => {
    const redactor = createRedactor({ parameterNames: ['email'] });
    redactor.arguments({ email: 'ada+x@example.com' });
    expect(redactor.text('GET /users?email=ada%2Bx%40example.com failed for ada+x@example.com')).toBe('GET /users?email=[REDACTED] failed for [REDACTED]');
  });

  it('removes secrets, the longest first', () => {
    const redactor = createRedactor({ secrets: ['token-abc', 'token-abc-extended'] });
    expect(redactor.text('a token-abc-extended b token-abc')).toBe('a [REDACTED] b [REDACTED]');
  });

  it('ignores secrets too short to be meaningful', () => {
    const redactor = createRedactor({ secrets: ['ok'] });
    expect(redactor.text('ok then')).toBe('ok then');
  });

  it('learns secrets added later and redacted names added later', () => {
    const redactor = createRedactor();
    redactor.addSecret('fresh-access-token');
    redactor.addParameterNames(['pin']);
    expect(redactor.text('Bearer fresh-access-token')).toBe('Bearer [REDACTED]');
    expect(redactor.arguments({ pin: '1234' })).toEqual({ pin: '[REDACTED]' });
    expect(redactor.isRedactedName('PIN')).toBe(true);
  });
});
