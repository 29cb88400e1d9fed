import { describe, expect, it } from 'vitest';
import { invalidFixtures, warningFixtures } from '../../test/fixtures/manifests/expectations.js';
import { loadPayments, readFixture } from '../../test/fixtures/manifests/load-fixture.js';
import { validateManifest } from './validate-manifest.js';

function errorsOf(input: unknown): Array<{ code: string; pointer: string }> {
  return validateManifest(input)
    .issues.filter((issue) => issue.severity === 'error')
    .map(({ code, pointer }) => ({ code, pointer }));
}

describe('validateManifest', () => {
  it('accepts the Payments manifest with no issue at all', () => {
    const payments = loadPayments();
    const result = validateManifest(payments);
    expect(result.issues).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.manifest).toBe(payments);
  });

  it.each(['valid/minimal.json', 'valid/loopback-http-with-extensions.json', 'valid/shared-definitions.json'])('accepts %s with no issue', (name) => {
    const result = validateManifest(JSON.parse(readFixture(name)));
    expect(result.issues).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("accepts the proposal's own Payments manifest, printed verbatim, with warnings only", () => {
    // Its resource path has an undeclared {account_id}, and its scopes and policy name tools the excerpt leaves out.
    const result = validateManifest(JSON.parse(readFixture('valid/proposal-payments.json')));
    expect(result.valid).toBe(true);
    expect(result.issues.map(({ code, pointer, severity }) => ({ code, pointer, severity }))).toEqual([
      { code: 'auth.unknown_id', pointer: '/auth/scopes/admin/0', severity: 'warning' },
      { code: 'auth.unknown_id', pointer: '/auth/scopes/admin/1', severity: 'warning' },
      { code: 'policy.unknown_id', pointer: '/policy/human_approval_required/0', severity: 'warning' },
      { code: 'policy.unknown_id', pointer: '/policy/human_approval_required/1', severity: 'warning' },
      { code: 'path.implicit_parameter', pointer: '/resources/0/path', severity: 'warning' },
    ]);
  });

  it('refuses every hop-by-hop, framing and client-owned header as a header parameter, in any case', () => {
    for (const name of [
      'host',
      'Connection',
      'CONTENT-LENGTH',
      'Transfer-Encoding',
      'Upgrade',
      'TE',
      'Trailer',
      'Keep-Alive',
      'Expect',
      'Proxy-Authorization',
      'proxy-connection',
      'Cookie',
      'Authorization',
    ]) {
      const payments = loadPayments();
      (payments.tools[0]!['parameters'] as Record<string, unknown>)[name] = { type: 'string', in: 'header' };
      expect(errorsOf(payments), name).toEqual([{ code: 'parameter.forbidden_header', pointer: `/tools/0/parameters/${name}` }]);
    }
    const allowed = loadPayments();
    (allowed.tools[0]!['parameters'] as Record<string, unknown>)['X-Request-Id'] = { type: 'string', in: 'header' };
    // A query parameter may be called "host": only headers route the request.
    (allowed.tools[0]!['parameters'] as Record<string, unknown>)['host'] = { type: 'string', in: 'query' };
    expect(errorsOf(allowed)).toEqual([]);
  });

  it('resolves #/definitions references from parameters, returns and other definitions, and keeps v0.1 local definitions local', () => {
    const payments = loadPayments();
    payments['definitions'] = {
      Money: { type: 'object', properties: { amount: { type: 'integer' } } },
      Node: { type: 'object', properties: { next: { $ref: '#/definitions/Node' }, value: { $ref: '#/definitions/Money/properties/amount' } } },
    };
    const tool = payments.tools[0]! as { parameters: Record<string, { json_schema?: unknown }>; returns?: unknown };
    tool.parameters['account_id']!.json_schema = { $ref: '#/definitions/Node' };
    // A v0.1 schema with its own "definitions": its #/definitions/… references point into itself.
    tool.parameters['limit']!.json_schema = { definitions: { Local: { type: 'integer' } }, $ref: '#/definitions/Local' };
    tool.returns = { type: 'object', schema: { $ref: '#/definitions/Money' } };
    expect(errorsOf(payments)).toEqual([]);
    (payments['definitions'] as Record<string, unknown>)['Node'] = { properties: { value: { $ref: '#/definitions/Money/properties/currency' } } };
    expect(errorsOf(payments)).toEqual([{ code: 'schema.unresolved_ref', pointer: '/definitions/Node/properties/value/$ref' }]);
  });

  it('checks each shared definition like any embedded schema', () => {
    const payments = loadPayments();
    payments['definitions'] = { Code: { type: 'string', pattern: '^(a+)+$' }, Remote: { $ref: 'https://evil.example/schema.json' } };
    expect(errorsOf(payments)).toEqual([
      { code: 'schema.unsafe_pattern', pointer: '/definitions/Code/pattern' },
      { code: 'schema.remote_ref', pointer: '/definitions/Remote/$ref' },
    ]);
  });

  it('reports an unsafe pattern in every manifest that has it, after another manifest had it as well', () => {
    // The verdicts of patterns are remembered across manifests: a remembered one must still be reported.
    const withUnsafePattern = (): Record<string, unknown> => {
      const payments = loadPayments();
      const tool = payments.tools[0]! as { parameters: Record<string, { json_schema?: unknown }> };
      tool.parameters['account_id']!.json_schema = { type: 'string', pattern: '^(b+)+$' };
      return payments;
    };
    const expected = [{ code: 'schema.unsafe_pattern', pointer: '/tools/0/parameters/account_id/json_schema/pattern' }];
    expect(errorsOf(withUnsafePattern())).toEqual(expected);
    expect(errorsOf(withUnsafePattern())).toEqual(expected);
    expect(errorsOf(loadPayments())).toEqual([]);
  });

  it.each(invalidFixtures)('rejects invalid/$file (.json) with $code at $pointer and nothing else', ({ file, code, pointer }) => {
    const result = validateManifest(JSON.parse(readFixture(`invalid/${file}.json`)));
    expect(result.valid).toBe(false);
    expect(result.manifest).toBeUndefined();
    expect(errorsOf(JSON.parse(readFixture(`invalid/${file}.json`)))).toEqual([{ code, pointer }]);
  });

  it.each(warningFixtures)('accepts warning/$file (.json) with the single warning $code at $pointer', ({ file, code, pointer }) => {
    const result = validateManifest(JSON.parse(readFixture(`warning/${file}.json`)));
    expect(result.valid).toBe(true);
    expect(result.issues.map((issue) => ({ code: issue.code, pointer: issue.pointer, severity: issue.severity }))).toEqual([{ code, pointer, severity: 'warning' }]);
  });

  it('has a distinct fixture for every semantic issue code it can emit', () => {
    const covered = new Set([...invalidFixtures, ...warningFixtures].map((fixture) => fixture.code));
    for (const code of [
      'id.duplicate',
      'id.invalid',
      'auth.unknown_id',
      'policy.unknown_id',
      'path.implicit_parameter',
      'parameter.forbidden_header',
      'schema.unknown_definition',
      'schema.unresolved_ref',
      'schema.ref_cycle',
      'path.unused_parameter',
      'path.parameter_location',
      'path.malformed_placeholder',
      'path.dot_segment',
      'prompt.missing_parameter',
      'temporal.unknown_placeholder',
      'temporal.undeclared_signal',
      'temporal.event_schema_without_job',
      'intent.unknown_prerequisite',
      'deprecated.unknown_replacement',
      'service.base_url_invalid',
      'service.base_url_insecure',
      'service.base_url_credentials',
      'url.invalid',
      'versioning.min_after_current',
      'schema_version.unsupported',
      'field.unknown',
    ]) {
      expect(covered, code).toContain(code);
    }
  });

  describe('schema_version', () => {
    it.each([
      ['0.1.0', true],
      ['0.2.0', true],
      ['0.99.7', true],
    ])('accepts %s (an unknown minor only adds optional fields)', (version, valid) => {
      expect(validateManifest({ ...loadPayments(), schema_version: version }).valid).toBe(valid);
    });

    it.each(['1.0.0', '2.3.4', '10.0.0'])('refuses major %s with that single issue, whatever else is wrong', (version) => {
      const result = validateManifest({ schema_version: version, tools: 'not even an array' });
      expect(result.issues).toEqual([expect.objectContaining({ pointer: '/schema_version', code: 'schema_version.unsupported', severity: 'error' })]);
    });

    it.each(['1', 'v1.0.0', '01.0.0', '1.0.0-beta'])('leaves the malformed version %j to the schema pattern', (version) => {
      expect(errorsOf({ ...loadPayments(), schema_version: version })).toEqual([{ code: 'schema.pattern', pointer: '/schema_version' }]);
    });
  });

  describe('service.base_url', () => {
    it.each(['https://api.example.com', 'https://api.example.com/v2/', 'http://localhost:3000', 'http://api.localhost/v1', 'http://127.0.0.1:8080', 'http://127.10.20.30', 'http://[::1]:8080/v2'])(
      'accepts %s',
      (baseUrl) => {
        const manifest = loadPayments();
        manifest['service'] = { name: 'Payments API', base_url: baseUrl };
        expect(errorsOf(manifest)).toEqual([]);
      },
    );

    it.each([
      ['http://api.example.com', 'service.base_url_insecure'],
      ['http://10.0.0.1', 'service.base_url_insecure'],
      ['http://localhost.example.com', 'service.base_url_insecure'],
      ['ftp://api.example.com', 'service.base_url_insecure'],
      ['file:///etc/passwd', 'service.base_url_insecure'],
      ['api.example.com', 'service.base_url_invalid'],
      ['https://api.example.com/#x', 'service.base_url_invalid'],
      ['https://token@api.example.com', 'service.base_url_credentials'],
    ])('rejects %s with %s', (baseUrl, code) => {
      const manifest = loadPayments();
      manifest['service'] = { name: 'Payments API', base_url: baseUrl };
      expect(errorsOf(manifest)).toEqual([{ code, pointer: '/service/base_url' }]);
    });
  });

  it.each([
    ['/a/./b', true],
    ['/a/../b', true],
    ['/..', true],
    ['/a/%2E%2e/b', true],
    ['/a/.%2e', true],
    ['/a/..?x=1', true],
    ['/a/.well-known/b', false],
    ['/a/..b/c', false],
    ['/v1.2/items', false],
  ])('treats the path %s as having a dot segment: %s', (path, flagged) => {
    const manifest = loadPayments();
    manifest.tools[0] = { ...manifest.tools[0], path };
    expect(errorsOf(manifest).some((issue) => issue.code === 'path.dot_segment')).toBe(flagged);
  });

  it('reads a placeholder filled from a dotted job_id_field by its last segment', () => {
    const manifest = loadPayments();
    const temporal = manifest.tools[4]?.['temporal_behavior'] as Record<string, unknown>;
    temporal['job_id_field'] = 'data.report_id';
    temporal['status_endpoint'] = '/reports/{report_id}/status';
    temporal['result_endpoint'] = '/reports/{report_id}/result';
    temporal['cancel_endpoint'] = '/reports/{report_id}/cancel';
    (manifest.tools[4]?.['event_schema'] as Record<string, Record<string, unknown>>)['needs_input'] = { resolution_endpoint: '/reports/{report_id}/respond' };
    expect(errorsOf(manifest)).toEqual([]);
  });

  it('lets a job endpoint reuse a placeholder of the tool path', () => {
    const manifest = loadPayments();
    manifest.tools[4] = {
      ...manifest.tools[4],
      path: '/accounts/{account_id}/reports',
      parameters: { account_id: { type: 'string', required: true } },
      temporal_behavior: { pattern: 'async_job', status_endpoint: '/accounts/{account_id}/reports/{job_id}', status_response_type: 'json', terminal_states: ['done'] },
      event_schema: undefined,
    };
    expect(errorsOf(JSON.parse(JSON.stringify(manifest)))).toEqual([]);
  });

  it('reports a bad id once, not again where scopes and policy name it', () => {
    const manifest = loadPayments();
    manifest.tools[2] = { ...manifest.tools[2], id: 'close account' };
    const auth = manifest['auth'] as { scopes: Record<string, string[]> };
    auth.scopes['admin'] = ['modify_limits'];
    manifest['policy'] = { human_approval_required: ['modify_limits'] };
    expect(errorsOf(manifest)).toEqual([{ code: 'id.invalid', pointer: '/tools/2/id' }]);
  });

  it('does not mistake a parameter name in prerequisites for an unknown id', () => {
    const manifest = loadPayments();
    (manifest.tools[0]?.['intent'] as Record<string, unknown>)['prerequisites'] = 'Resolve account_id with account_summary first.';
    expect(validateManifest(manifest).issues).toEqual([]);
  });

  it('reports one "must be A or B" issue for an anyOf mismatch instead of one per branch', () => {
    const manifest = loadPayments();
    manifest.tools[0] = { ...manifest.tools[0], deprecated: 'yes' };
    expect(validateManifest(manifest).issues).toEqual([{ pointer: '/tools/0/deprecated', code: 'schema.type', message: 'must be boolean or object', severity: 'error' }]);
  });

  it('keeps only the deeper error when an anyOf branch matched the type but not the content', () => {
    const manifest = loadPayments();
    manifest.tools[0] = { ...manifest.tools[0], deprecated: { replaced_by: '9 lives' } };
    expect(errorsOf(manifest)).toEqual([{ code: 'id.invalid', pointer: '/tools/0/deprecated/replaced_by' }]);
  });

  it('warns about unknown fields inside the object branch of an anyOf', () => {
    const manifest = loadPayments();
    manifest.tools[1] = { ...manifest.tools[1], deprecated: { replaced_by: 'analyze_transactions', reason: 'old' } };
    expect(validateManifest(manifest).issues).toEqual([expect.objectContaining({ code: 'field.unknown', pointer: '/tools/1/deprecated/reason', severity: 'warning' })]);
  });

  it('never warns about x- extension fields or members of embedded JSON Schemas', () => {
    const manifest = loadPayments();
    manifest['x-vendor'] = { anything: true };
    manifest.tools[0] = { ...manifest.tools[0], 'x-owner': 'risk-team', returns: { type: 'object', schema: { 'x-anything': 1, unknownKeyword: true } } };
    expect(validateManifest(manifest).issues).toEqual([]);
  });

  it('skips unknown-field warnings when warnUnknownFields is false', () => {
    const manifest = { ...loadPayments(), extra: 1 };
    expect(validateManifest(manifest).issues.map((issue) => issue.code)).toEqual(['field.unknown']);
    expect(validateManifest(manifest, { warnUnknownFields: false }).issues).toEqual([]);
  });

  it('escapes JSON Pointer tokens and lists errors before warnings', () => {
    const manifest = loadPayments();
    manifest['auth'] = { type: 'bearer', scopes: { 'billing/read~all': ['no_such_tool'] } };
    manifest['extra'] = true;
    (manifest.tools[0]!['parameters'] as Record<string, unknown>)['a/b~c'] = { type: 'string', in: 'path' };
    const issues = validateManifest(manifest).issues;
    expect(issues.map((issue) => [issue.severity, issue.pointer])).toEqual([
      ['error', '/tools/0/parameters/a~1b~0c'],
      ['warning', '/auth/scopes/billing~1read~0all/0'],
      ['warning', '/extra'],
    ]);
  });

  it('quotes untrusted text in messages so control characters cannot reach a terminal, and cuts it short', () => {
    const manifest = loadPayments();
    const hostile = `\u001b[2J\u001b]0;pwned\u0007${'x'.repeat(500)}`;
    manifest['service'] = { name: 'Payments API', base_url: hostile };
    const [issue] = validateManifest(manifest).issues;
    expect(issue?.code).toBe('service.base_url_invalid');
    expect([...(issue?.message ?? '')].some((character) => character.charCodeAt(0) < 0x20)).toBe(false);
    expect(issue?.message).toContain('\\u001b[2J');
    expect(issue?.message.length).toBeLessThan(200);
  });

  it.each([
    ['a string', 'manifest text'],
    ['null', null],
    ['an array', [1, 2]],
    ['a number', 42],
    ['an empty object', {}],
  ])('answers with issues, not an exception, for %s', (_label, input) => {
    const result = validateManifest(input);
    expect(result.valid).toBe(false);
    expect(result.issues.length).toBeGreaterThan(0);
  });

  it('reports every missing required member of an empty object at its own pointer', () => {
    expect(errorsOf({})).toEqual([
      { code: 'schema.required', pointer: '/schema_version' },
      { code: 'schema.required', pointer: '/service' },
      { code: 'schema.required', pointer: '/tools' },
    ]);
  });

  it('stops schema validation of a hostile document after 200 errors and says so', () => {
    const tools = Array.from({ length: 2000 }, () => ({ id: 1, path: 5, method: 'X', description: 3, example_trigger: 5, deprecated: 'x' }));
    const result = validateManifest({ schema_version: '0.1.0', service: { name: 'x', base_url: 'https://x.example' }, tools });
    expect(result.valid).toBe(false);
    expect(result.issues.length).toBeLessThan(260);
    expect(result.issues.at(-1)).toEqual(expect.objectContaining({ pointer: '', code: 'schema.truncated', severity: 'error' }));
  });

  it('lists at most 1000 issues, errors first, and says how many more there were', () => {
    const manifest = { ...loadPayments(), ...Object.fromEntries(Array.from({ length: 1500 }, (_, index) => [`extra${index}`, index])) };
    const result = validateManifest(manifest);
    expect(result.valid).toBe(true);
    expect(result.issues).toHaveLength(1001);
    expect(result.issues.at(-1)).toEqual({ pointer: '', code: 'issues.truncated', message: '500 more issues are not listed', severity: 'warning' });
  });

  it('answers input.unreadable for a value whose getter throws', () => {
    const manifest = loadPayments();
    Object.defineProperty(manifest, 'service', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    expect(validateManifest(manifest)).toEqual({ valid: false, issues: [expect.objectContaining({ pointer: '', code: 'input.unreadable', severity: 'error' })] });
  });

  it('validates a manifest that contains a cycle without looping', () => {
    const manifest = loadPayments();
    manifest.tools[0] = { ...manifest.tools[0], 'x-self': manifest, parameters: { a: { type: 'string', json_schema: manifest } } };
    const result = validateManifest(manifest);
    expect(result.issues.map((issue) => issue.code)).toContain('schema.too_deep');
  });

  it('survives a cyclic embedded schema by its node budget', () => {
    const manifest = loadPayments();
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic['properties'] = { self: cyclic };
    manifest.tools[0] = { ...manifest.tools[0], returns: { type: 'object', schema: cyclic } };
    expect(errorsOf(manifest).map((issue) => issue.code)).toContain('schema.too_deep');
  });

  it('checks v0.3 serialisation: a style outside its location, body_required naming no body parameter', () => {
    const manifest = loadPayments() as unknown as { tools: Array<Record<string, unknown>>; schema_version: string };
    manifest.schema_version = '0.3.0';
    const tool = manifest.tools.find((entry) => entry['method'] === 'POST')!;
    const [first] = Object.keys(tool['parameters'] as Record<string, unknown>);
    (tool['parameters'] as Record<string, Record<string, unknown>>)[first!] = { type: 'string', in: 'header', style: 'deepObject' };
    tool['body_required'] = ['nope'];
    expect(
      errorsOf(manifest)
        .map((issue) => issue.code)
        .sort(),
    ).toEqual(['parameter.style_location', 'tool.body_required_unknown']);
  });
});

describe('validateManifest: semantic checks of one tool, each at its pointer', () => {
  function withTool(tool: Record<string, unknown>): unknown {
    return {
      schema_version: '0.3.0',
      service: { name: 'Things', base_url: 'https://api.example.test' },
      tools: [
        { id: 'list_things', path: '/things', method: 'GET', description: 'Lists things.' },
        { id: 'the_tool', description: 'The tool under test.', path: '/things', method: 'POST', ...tool },
      ],
    };
  }
  const issuesOf = (tool: Record<string, unknown>) => validateManifest(withTool(tool)).issues.map(({ code, pointer, severity }) => ({ code, pointer, severity }));

  it.each<[string, Record<string, unknown>, { code: string; pointer: string; severity: 'error' | 'warning' }]>([
    [
      'body_parameter naming no parameter',
      { body_parameter: 'payload', parameters: { name: { type: 'string' } } },
      { code: 'tool.body_parameter_unknown', pointer: '/tools/1/body_parameter', severity: 'error' },
    ],
    [
      'body_parameter on a GET',
      { method: 'GET', body_parameter: 'payload', parameters: { payload: { type: 'object', in: 'body' } } },
      { code: 'tool.body_parameter_location', pointer: '/tools/1/body_parameter', severity: 'error' },
    ],
    [
      'another parameter in the body beside body_parameter',
      { body_parameter: 'payload', parameters: { payload: { type: 'object', in: 'body' }, note: { type: 'string' } } },
      { code: 'tool.body_parameter_conflict', pointer: '/tools/1/parameters/note', severity: 'error' },
    ],
    [
      'a style a path parameter cannot have',
      { path: '/things/{id}', parameters: { id: { type: 'string', in: 'path', required: true, style: 'deepObject' } } },
      { code: 'parameter.style_location', pointer: '/tools/1/parameters/id/style', severity: 'error' },
    ],
    [
      'a style in a parameter name needing escapes',
      { parameters: { 'a/b~c': { type: 'string', in: 'header', style: 'form' } } },
      { code: 'parameter.style_location', pointer: '/tools/1/parameters/a~1b~0c/style', severity: 'error' },
    ],
    [
      'body_required naming a query parameter',
      { body_required: ['limit'], parameters: { limit: { type: 'integer', in: 'query' } } },
      { code: 'tool.body_required_unknown', pointer: '/tools/1/body_required/0', severity: 'error' },
    ],
    [
      'event_schema without temporal_behavior',
      { event_schema: { needs_input: { description: 'Asks.' } } },
      { code: 'temporal.event_schema_without_job', pointer: '/tools/1/event_schema', severity: 'warning' },
    ],
    [
      'a job endpoint placeholder nothing fills',
      { temporal_behavior: { pattern: 'async_job', status_endpoint: '/jobs/{job}', status_response_type: 'json', terminal_states: ['done'] } },
      { code: 'temporal.unknown_placeholder', pointer: '/tools/1/temporal_behavior/status_endpoint', severity: 'error' },
    ],
    [
      'an event not listed in signals',
      {
        temporal_behavior: { pattern: 'async_job', status_endpoint: '/jobs/{job_id}', status_response_type: 'json', terminal_states: ['done'] },
        event_schema: { needs_input: { description: 'Asks.' } },
      },
      { code: 'temporal.undeclared_signal', pointer: '/tools/1/event_schema/needs_input', severity: 'warning' },
    ],
    [
      'a replacement that is no tool',
      { deprecated: { sunset: '2027-01-01', replaced_by: 'make_thing' } },
      { code: 'deprecated.unknown_replacement', pointer: '/tools/1/deprecated/replaced_by', severity: 'warning' },
    ],
    [
      'a prerequisite naming no tool',
      { intent: { when: 'Always.', prerequisites: 'Call create_session first.' } },
      { code: 'intent.unknown_prerequisite', pointer: '/tools/1/intent/prerequisites', severity: 'warning' },
    ],
  ])('reports %s', (_, tool, expected) => {
    expect(issuesOf(tool)).toContainEqual(expected);
  });

  it.each<[string, Record<string, unknown>]>([
    ['body_parameter alone in the body', { body_parameter: 'payload', parameters: { payload: { type: 'object', in: 'body' }, limit: { type: 'integer', in: 'query' } } }],
    [
      'a job endpoint filled from the job id and the tool path',
      {
        path: '/accounts/{account}/exports',
        parameters: { account: { type: 'string', in: 'path', required: true } },
        temporal_behavior: { pattern: 'async_job', status_endpoint: '/accounts/{account}/jobs/{job_id}', status_response_type: 'json', terminal_states: ['done'] },
      },
    ],
    ['a prerequisite naming another tool', { intent: { when: 'Always.', prerequisites: 'Call list_things first.' } }],
    ['a replacement that is a tool', { deprecated: { sunset: '2027-01-01', replaced_by: 'list_things' } }],
  ])('reports nothing for %s', (_, tool) => {
    expect(issuesOf(tool)).toEqual([]);
  });
});

describe('validateManifest: a parameter named __proto__ in a manifest given as an object', () => {
  // JSON.parse makes "__proto__" an own member; the strict parser refuses it in text, and an object
  // must not get past validation with it: as a key of the arguments schema it sets a prototype.
  it.each([
    ['a tool', '{"tools":[{"id":"a","path":"/a","method":"GET","description":"A.","parameters":{"__proto__":{"type":"string","required":true}}}]}', '/tools/0/parameters/__proto__'],
    ['a resource', '{"tools":[],"resources":[{"id":"r","path":"/r","description":"R.","parameters":{"__proto__":{"type":"string"}}}]}', '/resources/0/parameters/__proto__'],
  ])('refuses it on %s with json.forbidden_key at its pointer', (_, members, pointer) => {
    const manifest = { schema_version: '0.1.0', service: { name: 'x', base_url: 'https://api.example.test' }, ...(JSON.parse(members) as object) };
    const result = validateManifest(manifest);
    expect(result.valid).toBe(false);
    expect(result.issues).toContainEqual(expect.objectContaining({ code: 'json.forbidden_key', pointer, severity: 'error' }));
  });
});
