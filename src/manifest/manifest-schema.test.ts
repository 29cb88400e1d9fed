import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { manifestSchema } from './manifest-schema.js';
import type { Manifest, Tool } from './manifest-v0.js';
import { validateManifest } from './validate-manifest.js';

/**
 * Every optional field made required, all the way down. Where the types allow a primitive or an
 * object (`deprecated: boolean | Deprecation`, `example_trigger: string | string[]`), the object or
 * array form is required, so that a fixture of this type has to spell out every field the types define.
 */
type Complete<T> = unknown extends T
  ? T
  : T extends ReadonlyArray<infer Item>
    ? Array<Complete<Item>>
    : [Exclude<T, string | number | boolean | null | undefined>] extends [never]
      ? T
      : { [Key in keyof Exclude<T, string | number | boolean | null | undefined>]-?: Complete<Exclude<T, string | number | boolean | null | undefined>[Key]> };

/**
 * A manifest that uses every field of the types. The compiler refuses a missing field (Complete
 * makes each one required) and an unknown one (excess property check), so this object's key paths
 * are exactly the field paths of the types.
 */
/** The serialisation fields of a parameter (spec v0.3), for the parameters below that have no other use for them. */
const serialisation = { style: 'form', explode: true, allow_reserved: false, allow_empty_value: false, content_type: 'application/json', resolved_by: 'export_ledger' } as const;

const completeManifest: Complete<Manifest> = {
  schema_version: '0.3.0',
  service: {
    name: 'Everything API',
    description: 'Uses every field of spec v0.1.',
    base_url: 'https://api.example.com/v1',
    documentation_url: 'https://api.example.com/docs',
    contact: 'mailto:api@example.com',
    health: 'https://api.example.com/ai-capabilities/health',
  },
  consumer_requirements: { content_types: ['application/json'], streaming_responses: true },
  tools: [
    {
      id: 'export_ledger',
      path: '/ledgers/{ledger_id}/exports',
      method: 'POST',
      description: 'Exports a ledger as a background job.',
      intent: { when: 'The user wants a ledger export.', prerequisites: 'Read ledger_overview first.', avoid_when: 'The user wants one entry.' },
      parameters: {
        ledger_id: {
          type: 'string',
          required: true,
          description: 'The ledger.',
          in: 'path',
          enum: ['main', 'archive'],
          default: 'main',
          example: 'main',
          json_schema: { type: 'string', maxLength: 64 },
          style: 'simple',
          explode: false,
          allow_reserved: false,
          allow_empty_value: false,
          content_type: 'text/plain',
          resolved_by: 'export_ledger',
        },
        filters: {
          type: 'object',
          required: false,
          description: 'Export filters: the whole request body.',
          in: 'body',
          enum: [{ since: '2026-01-01' }],
          default: {},
          example: { since: '2026-01-01' },
          json_schema: { type: 'object', properties: { since: { type: 'string', format: 'date' } } },
          ...serialisation,
        },
      },
      request_content_type: 'application/json',
      body_required: ['filters'],
      body_parameter: 'filters',
      returns: {
        type: 'array',
        description: 'Export entries.',
        item_schema: { type: 'object' },
        schema: { type: 'object' },
        typical_size: 'large',
        max_items: 10_000,
        content_type: 'application/json',
        redirect_statuses: [302],
        pagination: {
          style: 'cursor',
          parameter: 'cursor',
          limit_parameter: 'limit',
          next_field: 'meta.next_cursor',
          cursor_item_field: 'id',
          items_field: 'entries',
          has_more_field: 'meta.has_more',
          total_field: 'meta.total',
        },
      },
      errors: {
        rate_limited: { status: 429, type: 'https://api.example.com/problems/rate-limited', retry_strategy: 'exponential_backoff', max_retries: 3, context: 'Retry later.' },
      },
      example_trigger: ['Export the main ledger'],
      temporal_behavior: {
        pattern: 'async_job',
        status_endpoint: '/exports/{job_id}',
        status_response_type: 'event_stream',
        terminal_states: ['done', 'failed'],
        signals: ['progress'],
        result_endpoint: '/exports/{job_id}/result',
        cancel_endpoint: '/exports/{job_id}/cancel',
        job_id_field: 'job_id',
        reconnection: { supports_last_event_id: true, missed_events_recoverable: true, fallback_poll_interval_seconds: 2 },
      },
      event_schema: {
        progress: { description: 'Percent done.', fields: { percent: { type: 'number' } }, resolution_endpoint: '/exports/{job_id}/answer' },
      },
      version: '2.1.0',
      deprecated: { replaced_by: 'export_ledger', sunset: '2027-06-30', message: 'Use the v3 export.' },
      idempotent: false,
      idempotency_key_header: 'Idempotency-Key',
      ui_resource: 'ledger_overview',
      links: [{ tool: 'export_ledger', parameters: { ledger_id: '$arguments#/ledger_id' }, description: 'Export the same ledger again.' }],
    },
  ],
  resources: [
    {
      id: 'ledger_overview',
      path: '/ledgers/{ledger_id}',
      method: 'GET',
      description: 'A ledger and its balances.',
      intent: { when: 'Before any ledger tool.', prerequisites: 'None.', avoid_when: 'Never.' },
      parameters: { ledger_id: { type: 'string', required: true, description: 'The ledger.', in: 'path', enum: ['main'], default: 'main', example: 'main', json_schema: true, ...serialisation } },
      returns: {
        type: 'object',
        description: 'The ledger.',
        item_schema: {},
        schema: {},
        typical_size: 'small',
        max_items: 1,
        content_type: 'application/json',
        redirect_statuses: [],
        pagination: { style: 'link', parameter: 'p', limit_parameter: 'l', next_field: 'n', cursor_item_field: 'c', items_field: 'i', has_more_field: 'h', total_field: 't' },
      },
      mime_type: 'text/html;profile=mcp-app',
      ui: { connect_domains: ['https://api.example.com'], resource_domains: ['https://cdn.example.com'], prefers_border: true },
      links: [{ tool: 'export_ledger', parameters: { ledger_id: '$result#/ledger_id' }, description: 'Summarize it.' }],
    },
  ],
  prompts: [
    {
      id: 'summarize_ledger',
      description: 'Summarizes a ledger.',
      template: 'Summarize ledger {{ledger_id}}.',
      parameters: { ledger_id: { type: 'string', required: true, description: 'The ledger.', in: 'body', enum: ['main'], default: 'main', example: 'main', json_schema: {}, ...serialisation } },
    },
  ],
  auth: {
    type: 'oauth2',
    provider_discovery: 'https://api.example.com/.well-known/oauth-protected-resource',
    supported_methods: ['oauth2', 'api_key'],
    api_key: { in: 'header', name: 'X-API-Key', prefix: 'Key ' },
    scopes: { 'ledger:read': ['ledger_overview', 'summarize_ledger'], 'ledger:export': ['export_ledger'] },
    agent_identification: { requires_agent_id: true, id_header: 'X-Agent-ID', description: 'Audit trail.' },
  },
  policy: { human_approval_required: ['export_ledger'], redact_from_logs: ['ledger_id'], max_actions_per_session: 20, policy_url: 'https://api.example.com/ai-policy' },
  versioning: { current: '1.2.0', min_supported: '1.0.0', changelog_url: 'https://api.example.com/changelog' },
  change_feed: { path: '/.well-known/ai-capabilities/changes', heartbeat_interval_seconds: 15 },
  definitions: { Money: { type: 'object', properties: { amount: { type: 'integer' }, currency: { type: 'string' } } } },
};

// Complete<Manifest> must still be a Manifest, or the fixture would prove nothing about the real types.
const asManifest: Manifest = completeManifest;

/** Smaller typed fixtures for the other branches of the unions. */
const typedFixtures: Record<string, Manifest> = {
  'minimal manifest': { schema_version: '0.1.0', service: { name: 'Tiny', base_url: 'https://tiny.example' }, tools: [] },
  'boolean and string forms': {
    schema_version: '0.1.0',
    service: { name: 'Forms', base_url: 'http://127.0.0.1:3000' },
    tools: [
      {
        id: 'ping',
        path: '/ping',
        method: 'HEAD',
        description: 'Checks that the service answers.',
        deprecated: true,
        example_trigger: 'Is the service up?',
        returns: { item_schema: { status: 'string' } },
        request_content_type: 'application/x-www-form-urlencoded',
      } satisfies Tool,
    ],
    auth: { type: 'none' },
    'x-vendor': { note: 'extensions are allowed' },
  },
};

type SchemaNode = Record<string, unknown>;
const definitions = manifestSchema.$defs as unknown as Record<string, SchemaNode>;

function resolveReference(node: SchemaNode): SchemaNode {
  const reference = node['$ref'];
  return typeof reference === 'string' ? (definitions[reference.replace('#/$defs/', '')] ?? node) : node;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Field paths the schema defines, like `tools[].parameters.*.in`; free-form JSON Schema values are leaves. */
function schemaFieldPaths(node: SchemaNode, path: string, seen: Set<SchemaNode> = new Set()): string[] {
  const resolved = resolveReference(node);
  if (resolved === definitions['json_schema'] || seen.has(resolved)) return [];
  const inner = new Set(seen).add(resolved);
  const paths: string[] = [];
  for (const branch of (resolved['anyOf'] as SchemaNode[] | undefined) ?? []) paths.push(...schemaFieldPaths(branch, path, inner));
  if (isRecord(resolved['properties'])) {
    for (const [name, child] of Object.entries(resolved['properties'])) {
      const childPath = path ? `${path}.${name}` : name;
      paths.push(childPath);
      if (isRecord(child)) paths.push(...schemaFieldPaths(child, childPath, inner));
    }
  }
  if (isRecord(resolved['items'])) paths.push(...schemaFieldPaths(resolved['items'], `${path}[]`, inner));
  if (isRecord(resolved['additionalProperties'])) paths.push(...schemaFieldPaths(resolved['additionalProperties'], `${path}.*`, inner));
  return paths;
}

/** Field paths a value uses, read in the same notation with the schema as a guide to which objects are maps. */
function valueFieldPaths(value: unknown, node: SchemaNode, path: string): string[] {
  const resolved = resolveReference(node);
  if (resolved === definitions['json_schema']) return [];
  const branches = ((resolved['anyOf'] as SchemaNode[] | undefined) ?? []).map(resolveReference);
  if (branches.length > 0) {
    // Pick the branch the value's shape belongs to: structured object, map, array or scalar.
    const branch = Array.isArray(value)
      ? branches.find((candidate) => candidate['type'] === 'array')
      : isRecord(value)
        ? (branches.find((candidate) => isRecord(candidate['properties'])) ?? branches.find((candidate) => candidate['type'] === 'object'))
        : undefined;
    return branch ? valueFieldPaths(value, branch, path) : [];
  }
  if (Array.isArray(value) && isRecord(resolved['items'])) {
    const items = resolved['items'];
    return value.flatMap((item) => valueFieldPaths(item, items, `${path}[]`));
  }
  if (!isRecord(value)) return [];
  const properties = isRecord(resolved['properties']) ? resolved['properties'] : undefined;
  const additional = isRecord(resolved['additionalProperties']) ? resolved['additionalProperties'] : undefined;
  return Object.entries(value).flatMap(([key, child]) => {
    if (key.startsWith('x-')) return [];
    if (properties) {
      const childPath = path ? `${path}.${key}` : key;
      const childSchema = properties[key];
      return [childPath, ...(isRecord(childSchema) ? valueFieldPaths(child, childSchema, childPath) : [])];
    }
    return additional ? valueFieldPaths(child, additional, `${path}.*`) : [];
  });
}

describe('manifest types and JSON Schema', () => {
  it('schema/ai-capabilities-0.3.schema.json is exactly manifestSchema (run `npm run build` after changing the schema)', () => {
    const file = readFileSync(new URL('../../schema/ai-capabilities-0.3.schema.json', import.meta.url), 'utf8');
    expect(JSON.parse(file)).toEqual(manifestSchema);
    expect(file).toBe(`${JSON.stringify(manifestSchema, null, 2)}\n`);
  });

  it('keeps publishing the v0.1 and v0.2 schemas, and every document valid under them is valid under v0.3', () => {
    const published = ['0.1', '0.2'].map(
      (version) => JSON.parse(readFileSync(new URL(`../../schema/ai-capabilities-${version}.schema.json`, import.meta.url), 'utf8')) as { $id: string; properties: Record<string, unknown> },
    );
    expect(published.map((schema) => schema.$id)).toEqual(['https://aicap.dev/schema/ai-capabilities-0.1.schema.json', 'https://aicap.dev/schema/ai-capabilities-0.2.schema.json']);
    // v0.1 lacks the root definitions; v0.3 adds only optional root members (listed here) to v0.2's.
    const { definitions, change_feed: changeFeed, ...rootProperties } = manifestSchema.properties;
    expect(definitions).toBeDefined();
    expect(changeFeed).toBeDefined();
    expect(published[0]!.properties).toEqual(rootProperties);
    expect(Object.keys(published[1]!.properties)).toEqual(Object.keys(manifestSchema.properties).filter((name) => name !== 'change_feed'));
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false });
    const current = ajv.compile(manifestSchema);
    const documents: unknown[] = [JSON.parse(readFileSync(new URL('../../examples/payments/payments.manifest.json', import.meta.url), 'utf8')), ...Object.values(typedFixtures)];
    for (const schema of published) {
      const validate = ajv.compile(schema);
      for (const document of documents) if (validate(document)) expect(current(document)).toBe(true);
    }
    expect(current(documents[0])).toBe(true);
  });

  it('is a valid JSON Schema 2020-12 that compiles in ajv strict mode', () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false });
    expect(ajv.validateSchema(manifestSchema)).toBe(true);
    expect(() => ajv.compile(manifestSchema)).not.toThrow();
  });

  it('accepts the complete typed fixture and every other typed fixture, schema and semantics', () => {
    expect(validateManifest(asManifest).issues).toEqual([]);
    for (const [name, fixture] of Object.entries(typedFixtures)) {
      expect(validateManifest(fixture).issues, name).toEqual([]);
    }
  });

  it('defines exactly the fields the types define: a field added to one side only fails here', () => {
    const fromSchema = new Set(schemaFieldPaths(manifestSchema as unknown as SchemaNode, ''));
    const fromTypes = new Set(valueFieldPaths(completeManifest, manifestSchema as unknown as SchemaNode, ''));
    expect(
      [...fromSchema].filter((path) => !fromTypes.has(path)),
      'in the schema but not in the types',
    ).toEqual([]);
    expect(
      [...fromTypes].filter((path) => !fromSchema.has(path)),
      'in the types but not in the schema',
    ).toEqual([]);
    // Sanity: the walk reached the deep corners.
    expect(fromSchema).toContain('tools[].temporal_behavior.reconnection.fallback_poll_interval_seconds');
    expect(fromSchema).toContain('auth.agent_identification.id_header');
    expect(fromSchema).toContain('tools[].deprecated.replaced_by');
  });
});
