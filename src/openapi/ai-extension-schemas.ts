/**
 * The JSON Schema of each `x-ai-*` OpenAPI extension (docs/spec.md section 11), keyed by the file
 * name they are published under in `schema/openapi-extensions/`. The generator checks the values it
 * reads against them (`check-ai-extensions.ts`), and the Spectral ruleset shipped beside them applies
 * the same schemas, so a linter and `aicap generate` agree on what is malformed.
 * @module
 */

type Schema = Record<string, unknown>;

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const text = { type: 'string', minLength: 1, maxLength: 8192 };
const names = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 256 }, maxItems: 500 };
const path = { type: 'string', pattern: '^/', maxLength: 2048 };
const simpleType = { enum: ['string', 'number', 'integer', 'boolean', 'object', 'array'] };

const intent: Schema = {
  oneOf: [
    text,
    {
      type: 'object',
      required: ['when'],
      properties: { when: text, prerequisites: text, avoid_when: text, example_trigger: { oneOf: [text, { type: 'array', items: text, maxItems: 50 }] } },
    },
  ],
};

const errorContract: Schema = {
  type: 'object',
  properties: {
    status: { type: 'integer', minimum: 400, maximum: 599 },
    type: { type: 'string' },
    retry_strategy: { enum: ['none', 'immediate', 'fixed_delay', 'exponential_backoff'] },
    max_retries: { type: 'integer', minimum: 0, maximum: 100 },
    context: text,
  },
};

const temporal: Schema = {
  type: 'object',
  required: ['status_endpoint', 'terminal_states'],
  properties: {
    pattern: { const: 'async_job' },
    status_endpoint: path,
    status_response_type: { enum: ['event_stream', 'json'] },
    terminal_states: { type: 'array', minItems: 1, maxItems: 50, items: { type: 'string', minLength: 1 } },
    signals: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1 } },
    result_endpoint: path,
    cancel_endpoint: path,
    job_id_field: { type: 'string', minLength: 1 },
    reconnection: {
      type: 'object',
      properties: {
        supports_last_event_id: { type: 'boolean' },
        missed_events_recoverable: { type: 'boolean' },
        fallback_poll_interval_seconds: { type: 'number', exclusiveMinimum: 0, maximum: 86400 },
      },
    },
    event_schema: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: { description: text, fields: { type: 'object', additionalProperties: { oneOf: [simpleType, { type: ['object', 'boolean'] }] } }, resolution_endpoint: path },
      },
    },
  },
};

const prompt: Schema = {
  type: 'object',
  required: ['id', 'description', 'template'],
  properties: {
    id: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_-]{0,63}$' },
    description: text,
    template: { type: 'string', minLength: 1, maxLength: 65536 },
    parameters: { type: 'object', additionalProperties: { type: 'object', required: ['type'], properties: { type: simpleType } } },
  },
};

/** The published schema of extension `name` on `where`; `file` (by default the name) is the file it is published as, which its `$id` names: each `$id` is unique, so every schema loads into one validator. */
function extension(name: string, where: string, schema: Schema, file: string = name): Schema {
  return {
    $schema: DIALECT,
    $id: `https://aicap.dev/schema/openapi-extensions/${file}.schema.json`,
    title: `${name} (${where})`,
    description: `The value of the ${name} OpenAPI extension on ${where}; docs/spec.md section 11.`,
    ...schema,
  };
}

/** Every extension schema, by file name without `.schema.json`. */
export const aiExtensionSchemas: Readonly<Record<string, Schema>> = {
  'x-ai-intent': extension('x-ai-intent', 'an Operation', intent),
  // `__proto__` is no error code: a manifest refuses the key (§5), and a reader assigning it would set a prototype instead.
  'x-ai-errors': extension('x-ai-errors', 'an Operation', { type: 'object', propertyNames: { minLength: 1, maxLength: 128, not: { const: '__proto__' } }, additionalProperties: errorContract }),
  'x-ai-policy-operation': extension(
    'x-ai-policy',
    'an Operation',
    {
      type: 'object',
      properties: {
        human_approval_required: { type: 'boolean' },
        redact_from_logs: names,
        idempotent: { type: 'boolean' },
        idempotency_key_header: { type: 'string', pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$" },
      },
    },
    'x-ai-policy-operation',
  ),
  'x-ai-policy-root': extension(
    'x-ai-policy',
    'the root OpenAPI Object',
    {
      type: 'object',
      properties: { redact_from_logs: names, max_actions_per_session: { type: 'integer', minimum: 0 }, policy_url: { type: 'string', pattern: '^https?://', maxLength: 2048 } },
    },
    'x-ai-policy-root',
  ),
  'x-ai-temporal': extension('x-ai-temporal', 'an Operation', temporal),
  'x-ai-resource': extension('x-ai-resource', 'a GET Operation', {
    oneOf: [{ const: true }, { type: 'object', properties: { id: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_-]{0,63}$' }, description: text, mime_type: { type: 'string', minLength: 1 } } }],
  }),
  'x-ai-exclude': extension('x-ai-exclude', 'an Operation', { type: 'boolean' }),
  'x-ai-prompts': extension('x-ai-prompts', 'the root OpenAPI Object', { type: 'array', maxItems: 2000, items: prompt }),
  'x-ai-provider-discovery': extension('x-ai-provider-discovery', 'a Security Scheme Object', { type: 'string', pattern: '^https?://', maxLength: 2048 }),
};
