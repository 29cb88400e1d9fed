import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { aiExtensionSchemas } from './ai-extension-schemas.js';

// Strict mode: a misspelt keyword in a schema is an error here rather than a check silently skipped.
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
const validators = Object.fromEntries(Object.entries(aiExtensionSchemas).map(([name, schema]) => [name, ajv.compile(schema)]));
const accepts = (name: string, value: unknown): boolean => validators[name]!(value) === true;

describe('aiExtensionSchemas', () => {
  it('covers every x-ai-* extension of section 11, each a 2020-12 schema', () => {
    expect(Object.keys(aiExtensionSchemas).sort()).toEqual([
      'x-ai-errors',
      'x-ai-exclude',
      'x-ai-intent',
      'x-ai-policy-operation',
      'x-ai-policy-root',
      'x-ai-prompts',
      'x-ai-provider-discovery',
      'x-ai-resource',
      'x-ai-temporal',
    ]);
    for (const schema of Object.values(aiExtensionSchemas)) expect(schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('loads every published schema into one validator: each $id is unique and names the file it is published as', () => {
    const ids = Object.entries(aiExtensionSchemas).map(([name, schema]) => [name, schema['$id']]);
    expect(new Set(ids.map(([, id]) => id)).size).toBe(ids.length);
    const shared = new Ajv2020({ strict: false });
    for (const schema of Object.values(aiExtensionSchemas)) shared.addSchema(schema);
    expect(shared.getSchema('https://aicap.dev/schema/openapi-extensions/x-ai-policy-root.schema.json')!({ max_actions_per_session: -1 })).toBe(false);
  });

  it.each([
    ['x-ai-intent', 'Use to refund a payment.', true],
    ['x-ai-intent', { when: 'The customer wants their money back.', example_trigger: ['refund my order'] }, true],
    ['x-ai-intent', { avoid_when: 'Never.' }, false],
    ['x-ai-intent', '', false],
    ['x-ai-intent', 42, false],
    ['x-ai-intent', { when: 'x', example_trigger: Array.from({ length: 51 }, () => 'y') }, false],
    ['x-ai-intent', 'x'.repeat(8193), false],
    ['x-ai-errors', { CARD_DECLINED: { status: 402, retry_strategy: 'none' } }, true],
    ['x-ai-errors', { CARD_DECLINED: { status: 200 } }, false],
    ['x-ai-errors', { CARD_DECLINED: { retry_strategy: 'sometimes' } }, false],
    ['x-ai-errors', { '': { status: 400 } }, false],
    ['x-ai-errors', JSON.parse('{"__proto__": {"status": 400}}'), false],
    ['x-ai-policy-operation', { human_approval_required: true, idempotency_key_header: 'Idempotency-Key' }, true],
    ['x-ai-policy-operation', { human_approval_required: 'yes' }, false],
    ['x-ai-policy-operation', { idempotency_key_header: 'Idempotency Key' }, false],
    ['x-ai-policy-operation', { idempotency_key_header: 'Key\r\nX-Injected: 1' }, false],
    ['x-ai-policy-root', { policy_url: 'https://example.com/policy', max_actions_per_session: 10 }, true],
    ['x-ai-policy-root', { policy_url: 'javascript:alert(1)' }, false],
    ['x-ai-policy-root', { max_actions_per_session: -1 }, false],
    ['x-ai-temporal', { status_endpoint: '/jobs/{job_id}', terminal_states: ['done', 'failed'] }, true],
    ['x-ai-temporal', { status_endpoint: '/jobs/{job_id}' }, false],
    ['x-ai-temporal', { status_endpoint: 'https://evil.example/jobs', terminal_states: ['done'] }, false],
    ['x-ai-temporal', { status_endpoint: '/jobs', terminal_states: [] }, false],
    ['x-ai-temporal', { status_endpoint: '/jobs', terminal_states: ['done'], reconnection: { fallback_poll_interval_seconds: 0 } }, false],
    ['x-ai-resource', true, true],
    ['x-ai-resource', { id: 'account_summary', mime_type: 'application/json' }, true],
    ['x-ai-resource', false, false],
    ['x-ai-resource', { id: '1summary' }, false],
    ['x-ai-exclude', true, true],
    ['x-ai-exclude', 'true', false],
    ['x-ai-prompts', [{ id: 'monthly_review', description: 'Reviews a month.', template: 'Review {{month}}.', parameters: { month: { type: 'string' } } }], true],
    ['x-ai-prompts', [{ id: 'monthly_review', description: 'Reviews a month.' }], false],
    ['x-ai-prompts', [{ id: 'x', description: 'd', template: 't', parameters: { month: { type: 'date' } } }], false],
    ['x-ai-provider-discovery', 'https://auth.example.com/.well-known/openid-configuration', true],
    ['x-ai-provider-discovery', 'file:///etc/passwd', false],
  ])('%s: %j → accepted %s', (name, value, expected) => {
    expect(accepts(name, value)).toBe(expected);
  });
});
