import { describe, expect, it } from 'vitest';
import type { HttpMethod } from '../../manifest/manifest-v0.js';
import { createTestContext, TEST_DOCUMENT_URL } from '../test-helpers/create-test-context.js';
import { transformOperationObject, type OperationMapping } from './operation-object.js';

const ok = { '200': { description: 'OK' } };

function run(method: HttpMethod, path: string, operation: Record<string, unknown>, extra: { pathParameters?: unknown[]; rootSecurity?: unknown } = {}) {
  const context = createTestContext();
  const mapping = transformOperationObject(
    {
      id: 'the_tool',
      path,
      method,
      operation,
      pathParameters: extra.pathParameters ?? [],
      rootSecurity: extra.rootSecurity,
      scopedSchemes: new Set(['oauth']),
      documentUrl: TEST_DOCUMENT_URL,
      maxReturnSchemaNodes: 500,
    },
    context,
  );
  return { mapping, warnings: context.warnings };
}

describe('transformOperationObject', () => {
  const cases: Array<
    [
      string,
      { method: HttpMethod; path: string; operation: Record<string, unknown>; pathParameters?: unknown[]; rootSecurity?: unknown; want: (mapping: OperationMapping) => unknown; expected: unknown },
    ]
  > = [
    [
      'uses the summary, then the first paragraph of the description',
      {
        method: 'GET',
        path: '/pets',
        operation: { summary: 'List pets', description: 'Returns pets.\n\nMore text.', responses: ok },
        want: (mapping) => mapping.tool.description,
        expected: 'List pets\n\nReturns pets.',
      },
    ],
    ['falls back to method and path for the description', { method: 'GET', path: '/pets', operation: { responses: ok }, want: (mapping) => mapping.tool.description, expected: 'GET /pets' }],
    [
      'merges path-item parameters, the operation overriding by name and location',
      {
        method: 'GET',
        path: '/pets/{id}',
        pathParameters: [
          { name: 'id', in: 'path', schema: { type: 'string' } },
          { name: 'v', in: 'query', schema: { type: 'string' } },
        ],
        operation: { parameters: [{ name: 'v', in: 'query', description: 'Version', schema: { type: 'integer' } }], responses: ok },
        want: (mapping) => mapping.tool.parameters,
        expected: { id: { type: 'string', required: true, in: 'path' }, v: { type: 'integer', in: 'query', description: 'Version' } },
      },
    ],
    [
      'adds a path placeholder nobody declared as a required string',
      {
        method: 'GET',
        path: '/pets/{id}',
        operation: { responses: ok },
        want: (mapping) => mapping.tool.parameters,
        expected: { id: { type: 'string', required: true, in: 'path' } },
      },
    ],
    [
      'reads x-ai-intent with example_trigger',
      {
        method: 'GET',
        path: '/pets',
        operation: { responses: ok, 'x-ai-intent': { when: 'User asks for pets', avoid_when: 'Adopting', example_trigger: ['Show my pets'] } },
        want: (mapping) => [mapping.tool.intent, mapping.tool.example_trigger],
        expected: [{ when: 'User asks for pets', avoid_when: 'Adopting' }, ['Show my pets']],
      },
    ],
    [
      'accepts x-ai-intent as a plain string',
      { method: 'GET', path: '/pets', operation: { responses: ok, 'x-ai-intent': 'User asks for pets' }, want: (mapping) => mapping.tool.intent, expected: { when: 'User asks for pets' } },
    ],
    [
      'lets x-ai-errors rename the generic code for a status and add context',
      {
        method: 'GET',
        path: '/pets/{id}',
        operation: { responses: { ...ok, '404': { description: 'Not found' } }, 'x-ai-errors': { pet_not_found: { status: 404, context: 'Ask the user to check the pet id.' } } },
        want: (mapping) => mapping.tool.errors,
        expected: { pet_not_found: { status: 404, context: 'Ask the user to check the pet id.' } },
      },
    ],
    ['requires approval for non-GET operations by default', { method: 'DELETE', path: '/pets', operation: { responses: ok }, want: (mapping) => mapping.approval, expected: true }],
    ['requires no approval for GET', { method: 'GET', path: '/pets', operation: { responses: ok }, want: (mapping) => mapping.approval, expected: false }],
    [
      'follows x-openai-isConsequential: false',
      { method: 'POST', path: '/search', operation: { responses: ok, 'x-openai-isConsequential': false }, want: (mapping) => mapping.approval, expected: false },
    ],
    [
      'lets x-ai-policy override the approval default',
      { method: 'GET', path: '/secrets', operation: { responses: ok, 'x-ai-policy': { human_approval_required: true } }, want: (mapping) => mapping.approval, expected: true },
    ],
    [
      'redacts declared and secret-looking parameters',
      {
        method: 'POST',
        path: '/login',
        operation: {
          'x-ai-policy': { redact_from_logs: ['ssn'] },
          requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { user: { type: 'string' }, password: { type: 'string' }, api_key: { type: 'string' } } } } } },
          responses: ok,
        },
        want: (mapping) => mapping.redact.sort(),
        expected: ['api_key', 'password', 'ssn'],
      },
    ],
    [
      'turns an Idempotency-Key header into idempotency_key_header',
      {
        method: 'POST',
        path: '/payments',
        operation: { parameters: [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } }], responses: ok },
        want: (mapping) => [mapping.tool.idempotency_key_header, mapping.tool.parameters],
        expected: ['Idempotency-Key', undefined],
      },
    ],
    ['maps deprecated: true', { method: 'GET', path: '/old', operation: { deprecated: true, responses: ok }, want: (mapping) => mapping.tool.deprecated, expected: true }],
    [
      'collects OAuth scopes from the operation security',
      {
        method: 'GET',
        path: '/pets',
        operation: { security: [{ oauth: ['pets:read'] }, { key: [] }], responses: ok },
        want: (mapping) => mapping.scopes,
        expected: ['pets:read'],
      },
    ],
    [
      'falls back to the root security for scopes',
      { method: 'GET', path: '/pets', rootSecurity: [{ oauth: ['read'] }], operation: { responses: ok }, want: (mapping) => mapping.scopes, expected: ['read'] },
    ],
    [
      'maps x-ai-temporal on a 202 operation to temporal_behavior',
      {
        method: 'POST',
        path: '/reports',
        operation: {
          responses: { '202': { description: 'Started' } },
          'x-ai-temporal': { status_endpoint: '/jobs/{job_id}', terminal_states: ['done', 'failed'], event_schema: { progress: { description: 'Progress' } } },
        },
        want: (mapping) => [mapping.tool.temporal_behavior, mapping.tool.event_schema],
        expected: [{ pattern: 'async_job', status_response_type: 'json', status_endpoint: '/jobs/{job_id}', terminal_states: ['done', 'failed'] }, { progress: { description: 'Progress' } }],
      },
    ],
    [
      'marks a GET with x-ai-resource as a resource with its overrides',
      {
        method: 'GET',
        path: '/accounts/{id}/summary',
        operation: { responses: ok, 'x-ai-resource': { id: 'account_summary', mime_type: 'application/json' } },
        want: (mapping) => mapping.resource,
        expected: { id: 'account_summary', mime_type: 'application/json' },
      },
    ],
  ];
  it.each(cases)('%s', (_name, { method, path, operation, pathParameters, rootSecurity, want, expected }) => {
    const { mapping } = run(method, path, operation, { ...(pathParameters ? { pathParameters } : {}), rootSecurity });
    expect(mapping).toBeDefined();
    expect(want(mapping!)).toEqual(expected);
  });

  const warningCases: Array<[string, { method: HttpMethod; path: string; operation: Record<string, unknown>; code: string }]> = [
    ['a 202 without x-ai-temporal', { method: 'POST', path: '/jobs', operation: { responses: { '202': { description: 'Accepted' } } }, code: 'temporal.undeclared' }],
    ['x-ai-resource on a POST', { method: 'POST', path: '/things', operation: { responses: ok, 'x-ai-resource': true }, code: 'x-ai-resource.not_get' }],
    ['a malformed x-ai-intent', { method: 'GET', path: '/things', operation: { responses: ok, 'x-ai-intent': { avoid_when: 'x' } }, code: 'x-ai-intent.invalid' }],
    ['an x-ai-errors status outside 400–599', { method: 'GET', path: '/things', operation: { responses: ok, 'x-ai-errors': { odd: { status: 302 } } }, code: 'x-ai-errors.invalid' }],
    ['an unknown field in x-ai-errors', { method: 'GET', path: '/things', operation: { responses: ok, 'x-ai-errors': { gone: { status: 410, detail: 'x' } } }, code: 'x-ai.unknown_field' }],
    ['x-ai-temporal without terminal_states', { method: 'POST', path: '/things', operation: { responses: ok, 'x-ai-temporal': { status_endpoint: '/s' } }, code: 'x-ai-temporal.invalid' }],
    [
      'a path parameter with no placeholder',
      { method: 'GET', path: '/things', operation: { parameters: [{ name: 'id', in: 'path', schema: { type: 'string' } }], responses: ok }, code: 'parameter.path_unused' },
    ],
  ];
  it.each(warningCases)('warns, naming the operation, about %s', (_name, { method, path, operation, code }) => {
    const { warnings } = run(method, path, operation);
    expect(warnings).toEqual([expect.objectContaining({ code, where: `${method} ${path}` })]);
  });

  it('skips an operation whose required body cannot be sent', () => {
    const { mapping, warnings } = run('POST', '/files', { requestBody: { required: true, content: { 'application/xml': { schema: { type: 'object' } } } }, responses: ok });
    expect(mapping).toBeUndefined();
    expect(warnings[0]?.where).toBe('POST /files');
  });
});
