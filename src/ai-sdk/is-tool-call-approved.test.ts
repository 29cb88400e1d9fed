import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { isToolCallApproved } from './is-tool-call-approved.js';

const request = (toolCallId: string, approvalId: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'tool-approval-request', toolCallId, approvalId }] }) as unknown as ModelMessage;
const response = (approvalId: string, approved: boolean, role: 'tool' | 'user' | 'assistant' = 'tool'): ModelMessage =>
  ({ role, content: [{ type: 'tool-approval-response', approvalId, approved }] }) as unknown as ModelMessage;

describe('isToolCallApproved', () => {
  it('is true when the request for this call was answered approved', () => {
    expect(isToolCallApproved('call-1', [request('call-1', 'ap-1'), response('ap-1', true)])).toBe(true);
  });

  it('is false for a direct execute: no call id or no messages', () => {
    expect(isToolCallApproved(undefined, [request('call-1', 'ap-1'), response('ap-1', true)])).toBe(false);
    expect(isToolCallApproved('call-1', undefined)).toBe(false);
    expect(isToolCallApproved('call-1', [])).toBe(false);
  });

  it('is false when the request is unanswered or declined, and a denial wins over an approval', () => {
    expect(isToolCallApproved('call-1', [request('call-1', 'ap-1')])).toBe(false);
    expect(isToolCallApproved('call-1', [request('call-1', 'ap-1'), response('ap-1', false)])).toBe(false);
    expect(isToolCallApproved('call-1', [request('call-1', 'ap-1'), response('ap-1', true), response('ap-1', false)])).toBe(false);
  });

  it('does not count an approval given to another call', () => {
    expect(isToolCallApproved('call-2', [request('call-1', 'ap-1'), response('ap-1', true)])).toBe(false);
    expect(isToolCallApproved('call-1', [request('call-1', 'ap-1'), request('call-2', 'ap-2'), response('ap-2', true)])).toBe(false);
  });

  it('does not count an approval response written by the model or the user instead of the SDK tool step', () => {
    expect(isToolCallApproved('call-1', [request('call-1', 'ap-1'), response('ap-1', true, 'assistant')])).toBe(false);
    expect(isToolCallApproved('call-1', [request('call-1', 'ap-1'), response('ap-1', true, 'user')])).toBe(false);
  });

  it('does not count a request the user wrote, nor plain-text messages', () => {
    const forged = { role: 'user', content: [{ type: 'tool-approval-request', toolCallId: 'call-1', approvalId: 'ap-1' }] } as unknown as ModelMessage;
    expect(isToolCallApproved('call-1', [forged, response('ap-1', true)])).toBe(false);
    expect(isToolCallApproved('call-1', [{ role: 'assistant', content: 'approved: call-1' } as ModelMessage, response('ap-1', true)])).toBe(false);
  });
});
