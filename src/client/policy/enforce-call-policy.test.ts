import { describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import type { EffectivePolicy, PolicySubject } from './caller-policy.js';
import { enforceCallPolicy, type ApprovalRequest, type ApproveFunction, type EnforceCallPolicyInput } from './enforce-call-policy.js';
import { PolicyRefusedError } from './policy-refused-error.js';
import { createMemorySessionStore, type SessionStore } from './session-store.js';

// The fail-closed gate before a call is sent: block, approval, then the two budgets, in that order.

const subject: PolicySubject = { toolId: 'transfer', exposedName: 'bank__transfer', origin: 'https://bank.example.test', method: 'POST' };

const open: EffectivePolicy = { blocked: false, approvalReasons: [], redactNames: [], serviceBudget: undefined, callerBudget: undefined, retryAllowed: true };

function enforce(policy: Partial<EffectivePolicy>, overrides: Partial<EnforceCallPolicyInput> = {}) {
  const store = createMemorySessionStore();
  const input: EnforceCallPolicyInput = {
    policy: { ...open, ...policy },
    subject,
    description: 'Moves money.',
    arguments: { amount: 10, iban: 'DE00 1234' },
    url: 'https://bank.example.test/v1/transfers?dry=false',
    approve: undefined,
    session: { id: 'run-1', store },
    ...overrides,
  };
  return { store, input, run: () => enforceCallPolicy(input) };
}

describe('enforceCallPolicy', () => {
  it('lets an unrestricted call through without touching the session store', async () => {
    const touched: string[] = [];
    const store: SessionStore = { increment: (key: string) => (touched.push(key), 1) } as unknown as SessionStore;
    await expect(enforce({}, { session: { id: 'run-1', store } }).run()).resolves.toBeUndefined();
    expect(touched).toEqual([]);
  });

  it.each<[string, Partial<EffectivePolicy>, ApproveFunction | undefined, string, RegExp]>([
    ['a blocked tool', { blocked: true }, () => true, 'TOOL_DISABLED', /"bank__transfer" is blocked by the caller policy `blockedTools`/],
    ['approval with no callback', { approvalReasons: ['the manifest lists it'] }, undefined, 'APPROVAL_REQUIRED', /needs human approval \(the manifest lists it\).*Pass .*approve/],
    ['a callback that says no', { approvalReasons: ['r'] }, () => false, 'APPROVAL_DENIED', /was not approved\. Tell the user it was not performed\./],
    ['a callback that answers a truthy non-true value', { approvalReasons: ['r'] }, (() => 'yes') as unknown as ApproveFunction, 'APPROVAL_DENIED', /was not approved/],
    [
      'a callback that throws',
      { approvalReasons: ['r'] },
      () => {
        throw new Error('UI crashed');
      },
      'APPROVAL_DENIED',
      /was not approved/,
    ],
    ['a callback that rejects', { approvalReasons: ['r'] }, async () => Promise.reject(new Error('UI crashed')), 'APPROVAL_DENIED', /was not approved/],
  ])('refuses %s with %s, naming the tool and what to do', async (_case, policy, approve, code, message) => {
    const error = await errorOf(enforce(policy, { approve }).run());
    expect(error).toBeInstanceOf(PolicyRefusedError);
    expect(error).toMatchObject({ code, toolId: 'transfer' });
    expect(error.message).toMatch(message);
  });

  it('blocks before asking anyone: a blocked tool never reaches approve', async () => {
    let asked = 0;
    await errorOf(enforce({ blocked: true, approvalReasons: ['r'] }, { approve: () => (asked++, true) }).run());
    expect(asked).toBe(0);
  });

  it('shows the approver the request as it will be sent: subject, arguments unredacted, every reason, the URL', async () => {
    const seen: ApprovalRequest[] = [];
    const reasons = ['the manifest lists it in `policy.human_approval_required`', 'the caller policy `requireApproval` names it'];
    await enforce({ approvalReasons: reasons }, { approve: (request) => (seen.push(request), true) }).run();
    expect(seen).toEqual([{ ...subject, description: 'Moves money.', arguments: { amount: 10, iban: 'DE00 1234' }, reasons, url: 'https://bank.example.test/v1/transfers?dry=false' }]);
  });

  it('counts the service budget per session and origin, refusing the call past it with the limit and the way out', async () => {
    const { run, store } = enforce({ serviceBudget: 2 });
    await run();
    await run();
    const error = await errorOf(run());
    expect(error.code).toBe('BUDGET_EXCEEDED');
    expect(error.message).toBe('Session "run-1" used its 2 actions for https://bank.example.test (`policy.max_actions_per_session`); the call was refused. Start a new session to continue.');
    expect(await store.increment('aicap:actions:run-1:https://bank.example.test', 0)).toBe(3);
  });

  it('counts the caller budget across origins of one session, and not across sessions', async () => {
    const store = createMemorySessionStore();
    const run = (origin: string, session: string) => enforce({ callerBudget: 1 }, { subject: { ...subject, origin }, session: { id: session, store } }).run();
    await run('https://a.example.test', 'one');
    const error = await errorOf(run('https://b.example.test', 'one'));
    expect(error.message).toMatch(/used its 1 actions \(caller policy `maxActionsPerSession`\)/);
    await expect(run('https://b.example.test', 'two')).resolves.toBeUndefined();
  });

  it('consumes no budget for a call that approval refused', async () => {
    const { run, store } = enforce({ approvalReasons: ['r'], serviceBudget: 1, callerBudget: 1 }, { approve: () => false });
    await errorOf(run());
    await errorOf(run());
    expect(await store.increment('aicap:actions:run-1:https://bank.example.test', 0)).toBe(0);
    expect(await store.increment('aicap:actions:run-1', 0)).toBe(0);
  });

  it('awaits an asynchronous session store (a shared Redis one), so the budget holds across processes', async () => {
    let count = 5;
    const store = { increment: async (_key: string, by: number) => (count += by) } as unknown as SessionStore;
    expect((await errorOf(enforce({ serviceBudget: 5 }, { session: { id: 'shared', store } }).run())).code).toBe('BUDGET_EXCEEDED');
  });
});
