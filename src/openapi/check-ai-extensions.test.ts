import { describe, expect, it } from 'vitest';
import { OpenApiInvalidError } from './openapi-invalid-error.js';
import { checkAiExtensions } from './check-ai-extensions.js';
import { createTestContext } from './test-helpers/create-test-context.js';

const where = { location: '/specs/openapi.yaml', path: '/internal/{id}/metrics', method: 'get' };

function refusal(operation: Record<string, unknown>): OpenApiInvalidError {
  try {
    checkAiExtensions(operation, where, createTestContext());
  } catch (error) {
    expect(error).toBeInstanceOf(OpenApiInvalidError);
    return error as OpenApiInvalidError;
  }
  throw new Error('expected a refusal');
}

describe('checkAiExtensions', () => {
  it('says whether the operation is excluded', () => {
    expect(checkAiExtensions({ 'x-ai-exclude': true }, where, createTestContext())).toBe(true);
    expect(checkAiExtensions({ 'x-ai-exclude': false }, where, createTestContext())).toBe(false);
    expect(checkAiExtensions({}, where, createTestContext())).toBe(false);
  });

  it('refuses a malformed x-ai-exclude instead of guessing, naming the JSON Pointer and the file', () => {
    for (const value of ['true', 1, null, { value: true }]) {
      const error = refusal({ 'x-ai-exclude': value });
      expect(error.code).toBe('OPENAPI_INVALID');
      expect(error.location).toBe('/specs/openapi.yaml');
      expect(error.message).toContain('/paths/~1internal~1{id}~1metrics/get/x-ai-exclude');
    }
  });

  it('refuses a malformed x-ai-policy, pointing at the member', () => {
    const error = refusal({ 'x-ai-policy': { human_approval_required: 'yes' } });
    expect(error.message).toContain('/paths/~1internal~1{id}~1metrics/get/x-ai-policy/human_approval_required');
    expect(error.message).toContain('"yes"');
    expect(refusal({ 'x-ai-policy': { redact_from_logs: ['card', 7] } }).message).toMatch(/redact_from_logs\/1.*got 7\b/);
    expect(refusal({ 'x-ai-policy': 'approve' }).message).toContain('got "approve"');
    expect(() => checkAiExtensions({ 'x-ai-policy': { human_approval_required: true, idempotent: false } }, where, createTestContext())).not.toThrow();
  });

  it('cuts a long bad value in the message', () => {
    const error = refusal({ 'x-ai-exclude': 'x'.repeat(10_000) });
    expect(error.message.length).toBeLessThan(1_000);
  });

  it('warns about x-ai-* names section 11 does not define, and ignores other extensions', () => {
    const context = createTestContext();
    checkAiExtensions({ 'x-ai-intnet': 'typo', 'x-ai-intent': 'ok', 'x-internal': true }, where, context);
    expect(context.warnings).toEqual([{ code: 'x-ai.unknown', where: 'GET /internal/{id}/metrics', message: expect.stringContaining('x-ai-intnet') }]);
  });
});
