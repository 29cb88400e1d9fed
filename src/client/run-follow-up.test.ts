import { describe, expect, it } from 'vitest';
import type { Manifest } from '../manifest/manifest-v0.js';
import { catalogOf } from '../../test/helpers/catalog-of.js';
import type { CallEnvelope } from './call/call-envelope.js';
import type { CallOptions } from './call/client-call-options.js';
import { createFollowUpMemory } from './create-follow-up-memory.js';
import { followUpTarget, resolveFollowUpInput, runFollowUp } from './run-follow-up.js';
import type { ToolCallClient } from './run-tool-call.js';

// The `follow_up` tool of the agent adapters: a model names a handle, never the values; the call
// goes through client.call with `from`, so approval, budgets and policy apply as to any call.

const manifest = {
  schema_version: '0.3.0',
  service: { name: 'Bank', description: 'A bank.', base_url: 'https://api.example.com' },
  tools: [
    { id: 'find_accounts', method: 'GET', path: '/accounts', description: 'Finds accounts.', parameters: {} },
    { id: 'close_account', method: 'POST', path: '/accounts/{id}/close', description: 'Closes one.', parameters: { id: { type: 'string', required: true, in: 'path' }, reason: { type: 'string' } } },
  ],
  policy: { human_approval_required: ['close_account'] },
} as unknown as Manifest;
const tools = catalogOf(manifest);

function offered(): CallEnvelope {
  return {
    ok: true,
    status: 200,
    data: [{ id: 'acc_1' }],
    text: '',
    meta: { toolId: 'find_accounts', attempts: 1, durationInMs: 1, truncated: false },
    next: [{ tool: 'close_account', arguments: { id: 'acc_1' } }],
  };
}

function setup(answer: CallEnvelope = { ...offered(), next: [] }) {
  const memory = createFollowUpMemory();
  const earlier = offered();
  memory.describe(earlier, 'find_accounts');
  const calls: { toolId: string; args: Record<string, unknown> | undefined; options: CallOptions | undefined }[] = [];
  const client: ToolCallClient = { call: async (toolId, args, options) => (calls.push({ toolId, args, options }), answer), startJob: async () => Promise.reject(new Error('unused')) };
  return { memory, earlier, calls, client };
}

describe('resolveFollowUpInput', () => {
  it.each<[string, unknown, string]>([
    ['no input', undefined, 'no handle'],
    ['a handle that is not a string', { handle: 1 }, 'no handle'],
    ['an unknown handle', { handle: 'f9' }, '"f9"'],
    ['a prototype name', { handle: '__proto__' }, '"__proto__"'],
    ['a huge handle, cut to 16 characters', { handle: 'f'.repeat(10_000) }, `"${'f'.repeat(16)}"`],
  ])('refuses %s with LINK_UNRESOLVED saying what to do', (_case, input, shown) => {
    const outcome = resolveFollowUpInput(setup().memory, input);
    expect(outcome).toMatchObject({ ok: false, retryable: false, code: 'LINK_UNRESOLVED' });
    expect((outcome as { text: string }).text).toBe(
      `Error LINK_UNRESOLVED (not retryable): ${shown} is not a follow-up handle of this conversation (or it was forgotten); call the earlier tool again and use a handle its result lists.`,
    );
  });
});

describe('runFollowUp', () => {
  it('calls the target with the linked values over the model’s, from the offering envelope, passing approval and signal on', async () => {
    const { memory, earlier, calls, client } = setup();
    const controller = new AbortController();
    const approve = () => true;
    const outcome = await runFollowUp(client, memory, { handle: 'f1', arguments: { id: 'acc_typed', reason: 'moving' } }, { approve, signal: controller.signal });
    expect(outcome.ok).toBe(true);
    expect(calls).toEqual([{ toolId: 'close_account', args: { reason: 'moving', id: 'acc_1' }, options: { approve, signal: controller.signal, from: earlier } }]);
  });

  it('makes no call for an unknown handle', async () => {
    const { memory, calls, client } = setup();
    expect(await runFollowUp(client, memory, { handle: 'f2' }, {})).toMatchObject({ code: 'LINK_UNRESOLVED' });
    expect(calls).toEqual([]);
  });

  it('hands a refused call back as the model’s outcome, never a throw', async () => {
    const refused: CallEnvelope = {
      ok: false,
      status: 0,
      data: undefined,
      text: 'The action was not performed because it was not approved.',
      meta: { toolId: 'close_account', attempts: 0, durationInMs: 1, truncated: false },
      error: { code: 'APPROVAL_REQUIRED', status: 0, retryable: false, retryAfterInMs: null, userMessage: 'The action was not performed because it was not approved.', declared: false, message: 'm' },
    };
    const { memory, client } = setup(refused);
    expect(await runFollowUp(client, memory, { handle: 'f1' }, {})).toMatchObject({ ok: false, code: 'APPROVAL_REQUIRED' });
  });

  it('lists the new result’s own follow-ups under new handles', async () => {
    const { memory, client } = setup(offered());
    const outcome = await runFollowUp(client, memory, { handle: 'f1' }, {});
    expect(outcome.text).toContain('"handle":"f2"');
  });
});

describe('followUpTarget', () => {
  it('gives the catalog tool and the arguments the call will carry, for the framework’s approval decision', () => {
    const { memory } = setup();
    const target = followUpTarget(memory, tools, { handle: 'f1', arguments: { reason: 'moving' } });
    expect(target?.tool.name).toBe('close_account');
    expect(target?.tool.requiresApproval).toBe(true);
    expect(target?.args).toEqual({ reason: 'moving', id: 'acc_1' });
  });

  it('gives nothing for an unknown handle, or a target not in the tool list', () => {
    const { memory } = setup();
    expect(followUpTarget(memory, tools, { handle: 'f7' })).toBeUndefined();
    expect(
      followUpTarget(
        memory,
        tools.filter((tool) => tool.name !== 'close_account'),
        { handle: 'f1' },
      ),
    ).toBeUndefined();
  });
});
