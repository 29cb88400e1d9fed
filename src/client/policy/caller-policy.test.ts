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
