import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../client/index.js';
import { createApprovalGate } from './approval-gate.js';

const request = {
  toolId: 'refund_payment',
  method: 'POST',
  origin: 'https://api.example.test',
  url: 'https://api.example.test/v1/payments/p1/refund?token=secret',
  arguments: { payment_id: 'p1', card: '4111' },
  reasons: ['POST changes state.', 'The manifest requires approval.'],
  description: 'Refunds a payment.',
} as unknown as ApprovalRequest;

const redacting = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replaceAll('secret', '[REDACTED]').replaceAll('4111', '[REDACTED]'));

describe('createApprovalGate', () => {
  it('refuses and records the question, URL and arguments redacted for display, when the person has not confirmed', async () => {
    const gate = createApprovalGate({ id: 'refund_payment', path: '/payments/{payment_id}/refund' }, false, redacting);
    expect(gate.question()).toBeUndefined();
    expect(await gate.approve(request)).toBe(false);
    expect(gate.question()).toEqual({
      toolId: 'refund_payment',
      method: 'POST',
      origin: 'https://api.example.test',
      path: '/payments/{payment_id}/refund',
      url: 'https://api.example.test/v1/payments/p1/refund?token=[REDACTED]',
      reason: 'POST changes state. The manifest requires approval.',
      arguments: { payment_id: 'p1', card: '[REDACTED]' },
    });
  });

  it('approves without a question once the person confirmed', async () => {
    const gate = createApprovalGate({ id: 'refund_payment', path: '/payments/{payment_id}/refund' }, true, redacting);
    expect(await gate.approve(request)).toBe(true);
    expect(gate.question()).toBeUndefined();
  });
});
