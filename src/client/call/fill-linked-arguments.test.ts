import { describe, expect, it } from 'vitest';
import type { CallEnvelope } from './call-envelope.js';
import { fillLinkedArguments, rememberLinkContext } from './fill-linked-arguments.js';

function envelope(): CallEnvelope {
  return { ok: true, status: 200, data: { id: 'acc_1' }, text: '', meta: { toolId: 'find_account', attempts: 1, durationInMs: 1, truncated: false } };
}

describe('fillLinkedArguments', () => {
  it("never fills one origin's tool from another origin's result", () => {
    const from = envelope();
    rememberLinkContext(from, { origin: 'https://bank.example', toolId: 'find_account', next: [{ tool: 'get_account', arguments: { account_id: 'acc_1' } }], refused: [] });
    expect(fillLinkedArguments({ toolId: 'get_account', origin: 'https://bank.example', args: {}, from })).toEqual({ account_id: 'acc_1' });
    expect(() => fillLinkedArguments({ toolId: 'get_account', origin: 'https://other.example', args: {}, from })).toThrow(
      expect.objectContaining({ code: 'LINK_UNRESOLVED', message: expect.stringContaining('never carry values from one service to another') }),
    );
  });

  it('names the link, parameter and expression of a value it could not fill, and what to do', () => {
    const from = envelope();
    rememberLinkContext(from, {
      origin: 'https://bank.example',
      toolId: 'find_account',
      next: [],
      refused: [{ tool: 'get_account', link: 0, parameter: 'account_id', expression: '$result#/account/id', reason: 'the result has no value at "/account/id"' }],
    });
    expect(() => fillLinkedArguments({ toolId: 'get_account', origin: 'https://bank.example', args: {}, from })).toThrow(
      'Link 0 of "find_account" cannot fill "account_id" of "get_account" from "$result#/account/id": the result has no value at "/account/id". Nothing was sent; give "account_id" yourself or call "find_account" again.',
    );
    // A value the caller gives itself needs nothing from the link.
    expect(fillLinkedArguments({ toolId: 'get_account', origin: 'https://bank.example', args: { account_id: 'acc_9' }, from })).toEqual({ account_id: 'acc_9' });
  });

  it('asks the caller to pick among several per-item follow-ups', () => {
    const from = envelope();
    const next = [1, 2].map((n) => ({ tool: 'get_account', arguments: { account_id: `acc_${n}` } }));
    rememberLinkContext(from, { origin: 'https://bank.example', toolId: 'find_account', next, refused: [] });
    expect(() => fillLinkedArguments({ toolId: 'get_account', origin: 'https://bank.example', args: {}, from })).toThrow(/offers 2 follow-ups to "get_account" \(one per item\)/);
    expect(fillLinkedArguments({ toolId: 'get_account', origin: 'https://bank.example', args: { account_id: 'acc_2', expand: true }, from })).toEqual({ account_id: 'acc_2', expand: true });
  });
});
