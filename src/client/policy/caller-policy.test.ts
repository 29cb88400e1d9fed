import { describe, expect, it } from 'vitest';
import { resolveEffectivePolicy, type PolicySubject } from './caller-policy.js';

const subject: PolicySubject = { toolId: 'close_account', exposedName: 'payments__close_account', origin: 'https://api.example.com', method: 'POST' };

describe('resolveEffectivePolicy', () => {
  it('needs approval when either side asks for it', () => {
    expect(resolveEffectivePolicy({ human_approval_required: ['close_account'] }, undefined, subject).approvalReasons).toHaveLength(1);
    expect(resolveEffectivePolicy({}, { requireApproval: ['payments__close_account'] }, subject).approvalReasons).toHaveLength(1);
    expect(resolveEffectivePolicy({}, { requireApproval: ['*'] }, subject).approvalReasons).toHaveLength(1);
    expect(resolveEffectivePolicy({}, { requireApproval: (candidate) => candidate.method === 'POST' }, subject).approvalReasons).toHaveLength(1);
    expect(resolveEffectivePolicy({ human_approval_required: ['close_account'] }, { requireApprovalForConsequential: true }, subject).approvalReasons).toHaveLength(2);
    expect(resolveEffectivePolicy({}, {}, subject).approvalReasons).toEqual([]);
  });

  it('unions redacted names and keeps both budgets', () => {
    const policy = resolveEffectivePolicy({ redact_from_logs: ['ssn'], max_actions_per_session: 50 }, { redactFromLogs: ['email'], maxActionsPerSession: 10 }, subject);
    expect(policy.redactNames).toEqual(['ssn', 'email']);
    expect(policy.serviceBudget).toBe(50);
    expect(policy.callerBudget).toBe(10);
  });

  it('lets the caller forbid retries and block tools', () => {
    expect(resolveEffectivePolicy({}, { neverRetry: ['close_account'] }, subject).retryAllowed).toBe(false);
    expect(resolveEffectivePolicy({}, { blockedTools: ['*'] }, subject).blocked).toBe(true);
    expect(resolveEffectivePolicy({}, undefined, subject)).toMatchObject({ retryAllowed: true, blocked: false });
  });
});

describe('caller lists match tools by identity', () => {
  const subject = { toolId: 'transfer', exposedName: 'payments2__transfer', origin: 'https://payments.example', method: 'POST' };
  it.each([
    ['the tool id', ['transfer'], true],
    ['origin|id of its service', ['https://payments.example|transfer'], true],
    ['origin|id of another service', ['https://other.example|transfer'], false],
    ['an exposed name whose namespace was taken by another service', ['payments__transfer'], true],
    ['another tool', ['payments__refund'], false],
  ])('requireApproval with %s', (_name, requireApproval, expected) => {
    expect(resolveEffectivePolicy(undefined, { requireApproval }, subject).approvalReasons.length > 0).toBe(expected);
  });
});
