import { describe, expect, it } from 'vitest';
import { createTestContext } from '../test-helpers/create-test-context.js';
import { MAX_TEXT_LENGTH } from './text.js';
import { readErrorsExtension, readIntentExtension, readOperationPolicyExtension, readPromptsExtension, readTemporalExtension } from './x-ai-extensions.js';

const where = 'POST /payments';

describe('readIntentExtension', () => {
  it('reads a string as the when, trimmed', () => {
    expect(readIntentExtension('  Pay someone  ', createTestContext(), where)).toEqual({ intent: { when: 'Pay someone' } });
  });

  it('reads the object form with triggers, keeping at most 50 non-empty ones', () => {
    const triggers = ['', ' ', 3, ...Array.from({ length: 60 }, (_, index) => `pay ${index}`)];
    const read = readIntentExtension({ when: 'Pay', prerequisites: 'Have a customer', avoid_when: 'Refunds', example_trigger: triggers }, createTestContext(), where);
    expect(read.intent).toEqual({ when: 'Pay', prerequisites: 'Have a customer', avoid_when: 'Refunds' });
    expect(read.exampleTrigger).toHaveLength(50);
    expect((read.exampleTrigger as string[])[0]).toBe('pay 0');
  });

  it('clamps texts to what the manifest accepts', () => {
    const read = readIntentExtension('w'.repeat(MAX_TEXT_LENGTH + 100), createTestContext(), where);
    expect(read.intent?.when).toHaveLength(MAX_TEXT_LENGTH);
    expect(read.intent?.when.endsWith('…')).toBe(true);
  });

  it('warns and ignores a blank string or an object without when', () => {
    for (const value of ['   ', { prerequisites: 'x' }, 42, []]) {
      const context = createTestContext();
      expect(readIntentExtension(value, context, where)).toEqual({});
      expect(context.warnings.map((warning) => warning.code)).toEqual(['x-ai-intent.invalid']);
    }
  });
});

describe('readErrorsExtension', () => {
  it('keeps the fields an error contract defines and reports the others', () => {
    const context = createTestContext();
    const errors = readErrorsExtension({ card_declined: { status: 402, retry_strategy: 'none', colour: 'red', 'x-note': 'kept quiet' } }, context, where);
    expect(errors).toEqual({ card_declined: { status: 402, retry_strategy: 'none' } });
    expect(context.warnings).toEqual([{ code: 'x-ai.unknown_field', where, message: expect.stringContaining('"colour"') }]);
  });

  it('ignores entries whose status is not an integer from 400 to 599, or whose code is too long', () => {
    const context = createTestContext();
    const errors = readErrorsExtension({ ok: { status: 200 }, fractional: { status: 404.5 }, top: { status: 599 }, [`c${'o'.repeat(128)}`]: { status: 400 }, notObject: 'x' }, context, where);
    expect(Object.keys(errors)).toEqual(['top']);
    expect(context.warnings).toHaveLength(4);
    expect(context.warnings.every((warning) => warning.code === 'x-ai-errors.invalid')).toBe(true);
  });

  it('ignores a __proto__ code with a warning instead of setting the prototype of the errors map', () => {
    const context = createTestContext();
    // JSON.parse makes `__proto__` an own member, as the OpenAPI parser does.
    const errors = readErrorsExtension(JSON.parse('{"__proto__": {"status": 402}, "card_declined": {"status": 402}}'), context, where);
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype);
    expect(Object.keys(errors)).toEqual(['card_declined']);
    expect(context.warnings).toEqual([{ code: 'x-ai-errors.invalid', where, message: expect.stringContaining('__proto__') }]);
  });

  it('warns and ignores a value that is not a map', () => {
    const context = createTestContext();
    expect(readErrorsExtension(['card_declined'], context, where)).toEqual({});
    expect(context.warnings[0]?.code).toBe('x-ai-errors.invalid');
  });
});

describe('readOperationPolicyExtension', () => {
  it('keeps only well-typed members', () => {
    const context = createTestContext();
    expect(readOperationPolicyExtension({ human_approval_required: 'no', idempotent: true, redact_from_logs: ['card', '', 5], idempotency_key_header: ' ' }, context, where)).toEqual({
      idempotent: true,
      redact_from_logs: ['card'],
    });
    expect(readOperationPolicyExtension('strict', context, where)).toEqual({});
    expect(context.warnings.map((warning) => warning.code)).toEqual(['x-ai-policy.invalid']);
  });
});

describe('readTemporalExtension', () => {
  it('fills the defaults and splits off event_schema', () => {
    const read = readTemporalExtension({ status_endpoint: '/jobs/{id}', terminal_states: ['done'], event_schema: { progress: { type: 'object' } } }, createTestContext(), where);
    expect(read).toEqual({ temporal: { pattern: 'async_job', status_response_type: 'json', status_endpoint: '/jobs/{id}', terminal_states: ['done'] }, eventSchema: { progress: { type: 'object' } } });
  });

  it('needs a status endpoint and terminal states', () => {
    for (const value of [{ terminal_states: ['done'] }, { status_endpoint: '/jobs', terminal_states: [] }, { status_endpoint: '/jobs' }, 'x']) {
      const context = createTestContext();
      expect(readTemporalExtension(value, context, where)).toBeUndefined();
      expect(context.warnings[0]?.code).toBe('x-ai-temporal.invalid');
    }
  });
});

describe('readPromptsExtension', () => {
  it('keeps complete prompts and warns about the others by index', () => {
    const context = createTestContext();
    const prompts = readPromptsExtension([{ id: 'refund', description: 'Refund a payment', template: 'Refund {{id}}' }, { id: 'broken', template: 'x' }, null], context);
    expect(prompts).toEqual([{ id: 'refund', description: 'Refund a payment', template: 'Refund {{id}}' }]);
    expect(context.warnings.map((warning) => warning.where)).toEqual(['x-ai-prompts/1', 'x-ai-prompts/2']);
    expect(readPromptsExtension({ id: 'x' }, createTestContext())).toEqual([]);
  });
});
