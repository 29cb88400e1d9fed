import { describe, expect, it } from 'vitest';
import type { CallEnvelope } from '../client/call/call-envelope.js';
import { formatModelText } from '../client/call/format-model-text.js';
import type { BridgeTool } from './list-bridge-tools.js';
import { FOLLOW_UPS_KEY, toCallToolResult } from './to-call-tool-result.js';

const bridgeTool = {
  structure: 'object',
  definition: { name: 'find_account' },
  tool: { name: 'find_account', origin: 'https://bank.example', readOnly: true, definition: {} },
} as unknown as BridgeTool;

function envelope(shownBody: unknown, next: NonNullable<CallEnvelope['next']>): CallEnvelope {
  const { text } = formatModelText({ toolId: 'find_account', content: JSON.stringify(shownBody), maxLength: 20_000 });
  return { ok: true, status: 200, data: shownBody, text, next, meta: { toolId: 'find_account', attempts: 1, durationInMs: 1, truncated: false } };
}

describe('follow-ups in the bridge result', () => {
  it('puts the follow-ups into structuredContent, but only those whose values the redacted text still shows', () => {
    const next = [
      { tool: 'analyze_account', arguments: { account_id: 'acc_1' } },
      { tool: 'reset_pin', arguments: { pin: '9911' } },
    ];
    const result = toCallToolResult(envelope({ id: 'acc_1', pin: '[REDACTED]' }, next), bridgeTool);
    expect(result.structuredContent).toEqual({ id: 'acc_1', pin: '[REDACTED]', [FOLLOW_UPS_KEY]: [{ tool: 'analyze_account', arguments: { account_id: 'acc_1' } }] });
  });

  it('adds nothing when there are no follow-ups', () => {
    expect(toCallToolResult(envelope({ id: 'acc_1' }, []), bridgeTool).structuredContent).toEqual({ id: 'acc_1' });
  });
});
