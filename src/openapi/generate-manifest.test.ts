import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateManifest } from '../manifest/validate-manifest.js';
import { generateManifest, INTENT_TODO } from './generate-manifest.js';
import { parseManifestOverlay } from './manifest-overlay.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../../test/fixtures/openapi/${name}`, import.meta.url));

describe('generateManifest', () => {
  it('maps the Payments description: service, tools, resource, prompts, auth, policy, versioning', async () => {
    const { manifest, warnings } = await generateManifest({ input: fixture('payments.openapi.yaml') });
    expect(validateManifest(manifest).valid).toBe(true);
    expect(manifest.service).toEqual({
      name: 'Payments API',
      description: 'Processes and analyzes financial transactions',
      base_url: 'https://api.example.com/v2',
      documentation_url: 'https://api.example.com/docs',
      contact: 'api@example.com',
    });
    expect(manifest.tools.map((tool) => tool.id)).toEqual(['list_transactions', 'close_account', 'generate_report']);
    expect(manifest.resources?.map((resource) => resource.id)).toEqual(['account_summary']);
    expect(manifest.prompts?.map((prompt) => prompt.id)).toEqual(['monthly_review']);
    expect(manifest.auth).toEqual({
      type: 'oauth2',
      provider_discovery: 'https://api.example.com/.well-known/openid-configuration',
      scopes: { read: ['list_transactions', 'account_summary', 'generate_report'], admin: ['close_account'] },
    });
    expect(manifest.policy).toEqual({ human_approval_required: ['close_account'], max_actions_per_session: 50, policy_url: 'https://api.example.com/ai-policy' });
    expect(manifest.versioning).toEqual({ current: '2.1.0' });
    const close = manifest.tools[1]!;
    expect(close.idempotency_key_header).toBe('Idempotency-Key');
    expect(close.parameters).toEqual({
      account_id: { type: 'string', required: true, in: 'path', description: 'The account identifier' },
      reason: { type: 'string', required: true, in: 'body', enum: ['customer_request', 'fraud', 'duplicate'] },
    });
    expect(close.errors).toEqual({ insufficient_scope: expect.objectContaining({ status: 403 }), already_closed: { status: 409, context: 'The account is already closed.' } });
    expect(manifest.tools[2]!.temporal_behavior).toEqual({ pattern: 'async_job', status_response_type: 'event_stream', status_endpoint: '/jobs/{job_id}', terminal_states: ['completed', 'failed'] });
    expect(close.intent).toEqual({ when: INTENT_TODO });
    expect(warnings).toEqual([expect.objectContaining({ code: 'intent.missing', message: expect.stringContaining('close_account') })]);
  });

  it('writes each component once as a shared definition, circular ones included, and refers to it', async () => {
    const { manifest } = await generateManifest({ input: fixture('payments.openapi.yaml') });
    expect(manifest.schema_version).toBe('0.3.0');
    expect(manifest.resources![0]!.returns!.schema).toEqual({ $ref: '#/definitions/Account' });
    expect(manifest.definitions?.['Person']).toEqual({ type: 'object', properties: { name: { type: 'string' }, guardian: { $ref: '#/definitions/Person' } } });
    expect(JSON.stringify(manifest)).not.toContain('$defs');
  });

  it('applies an overlay: intent, approval, redaction, agent identification, and reports unknown ids', async () => {
    const overlay = parseManifestOverlay(await readFile(fixture('payments.overlay.yaml'), 'utf8'), 'payments.overlay.yaml');
    const { manifest, warnings } = await generateManifest({ input: fixture('payments.openapi.yaml'), overlay });
    expect(validateManifest(manifest).valid).toBe(true);
    expect(manifest.tools[1]!.intent).toEqual({ when: 'User explicitly asks to close or terminate an account', avoid_when: 'User only wants to freeze a card or change limits' });
    expect(manifest.policy?.human_approval_required).toEqual(['close_account', 'generate_report']);
    expect(manifest.policy?.redact_from_logs).toEqual(['reason', 'account_id']);
    expect(manifest.auth?.agent_identification).toEqual({ requires_agent_id: true, id_header: 'X-Agent-ID' });
    expect(warnings.map((warning) => warning.code)).toEqual(['overlay.unknown_id']);
  });

  it('gives the same manifest on regeneration', async () => {
    const first = await generateManifest({ input: fixture('payments.openapi.yaml') });
    const second = await generateManifest({ input: fixture('payments.openapi.yaml') });
    expect(JSON.stringify(second.manifest)).toBe(JSON.stringify(first.manifest));
  });

  it('follows relative $refs across files, including a path item and a cycle between files', async () => {
    const { manifest, statistics } = await generateManifest({ input: fixture('multi-file/openapi.yaml') });
    expect(statistics.documents).toBe(3);
    expect(validateManifest(manifest).valid).toBe(true);
    const book = manifest.tools.find((tool) => tool.id === 'get_book')!;
    expect(book.parameters?.['isbn']?.json_schema).toEqual({ type: 'string', pattern: '^[0-9-]{10,17}$' });
    expect(book.returns?.schema).toEqual({ $ref: '#/definitions/Book' });
    expect(manifest.definitions).toMatchObject({
      Book: { type: 'object', properties: { title: { type: 'string' }, author: { $ref: '#/definitions/Author' } } },
      Author: { type: 'object', properties: { name: { type: 'string' }, books: { type: 'array', items: { $ref: '#/definitions/Book' } } } },
    });
  });

  it('refuses a $ref that leaves the description directory, naming the option that allows it', async () => {
    await expect(generateManifest({ input: fixture('multi-file/outside.yaml') })).rejects.toMatchObject({ code: 'OPENAPI_INVALID', message: expect.stringMatching(/outside .*refRoot/s) });
    const { manifest } = await generateManifest({ input: fixture('multi-file/outside.yaml'), refRoot: fixture('') });
    expect(manifest.tools).toHaveLength(1);
  });

  it('converts Swagger 2.0: host and basePath, body parameter, api key, x-nullable, circular definition', async () => {
    const { manifest } = await generateManifest({ input: fixture('swagger2/petstore.json') });
    expect(validateManifest(manifest).valid).toBe(true);
    expect(manifest.service.base_url).toBe('https://petstore.example.com/v1');
    expect(manifest.auth).toEqual({ type: 'api_key', api_key: { in: 'header', name: 'X-Api-Key' } });
    const create = manifest.tools.find((tool) => tool.id === 'createPet')!;
    expect(create.parameters?.['name']).toEqual({ type: 'string', required: true, in: 'body' });
    expect(create.parameters?.['tag']).toEqual({ type: 'string', in: 'body', json_schema: { type: ['string', 'null'] } });
    expect(create.parameters?.['parent']?.json_schema).toEqual({ $ref: '#/definitions/Pet' });
    expect(manifest.definitions?.['Pet']).toEqual(expect.objectContaining({ type: 'object' }));
  });

  it('accepts the description as text and as an object', async () => {
    const text = 'openapi: 3.0.0\ninfo: { title: T, version: "1" }\nservers: [{ url: "https://t.example.com" }]\npaths:\n  /ping:\n    get:\n      responses: { "200": { description: pong } }\n';
    const fromText = await generateManifest({ input: text });
    const fromObject = await generateManifest({
      input: { openapi: '3.0.0', info: { title: 'T', version: '1' }, servers: [{ url: 'https://t.example.com' }], paths: { '/ping': { get: { responses: { '200': { description: 'pong' } } } } } },
    });
    expect(fromText.manifest).toEqual(fromObject.manifest);
    expect(fromText.manifest.tools[0]!.id).toBe('get_ping');
  });

  const invalid: Array<[string, unknown, RegExp]> = [
    ['a document that is not OpenAPI', '{"asyncapi": "2.0.0"}', /neither an `openapi` nor a `swagger` field/],
    ['an unsupported version', '{"swagger": "1.2"}', /"swagger": "1.2" is not supported/],
    ['broken YAML, naming the line', 'openapi: 3.0.0\ninfo: [\n', /not valid YAML at line \d+/],
    [
      'a spec violation (strict)',
      { openapi: '3.0.0', info: { title: 'T', version: '1' }, paths: { '/a/{id}': { get: { responses: { '200': { description: 'x' } } } } } },
      /missing path parameter.*pass `strict: false` to generate anyway/s,
    ],
    ['a $ref to a missing component', { openapi: '3.0.0', info: { title: 'T', version: '1' }, paths: { '/a': { $ref: '#/paths/b' } } }, /"\$ref": "#\/paths\/b" cannot be resolved/],
  ];
  it.each(invalid)('throws OPENAPI_INVALID for %s', async (_name, input, message) => {
    await expect(generateManifest({ input: input as string })).rejects.toMatchObject({ name: 'OpenApiInvalidError', code: 'OPENAPI_INVALID', message: expect.stringMatching(message) });
  });

  it('a strict refusal carries the option that relaxes it', async () => {
    const input = { openapi: '3.0.0', info: { title: 'T', version: '1' }, paths: { '/a/{id}': { get: { responses: { '200': { description: 'x' } } } } } };
    await expect(generateManifest({ input: input as unknown as string })).rejects.toMatchObject({ option: 'strict', terms: [{ kind: 'option', option: 'strict', value: false }] });
  });

  const badOptions: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a number as input', { input: 42 }, /`input` option must be a file path, a URL, the description text or the parsed document, got 42/],
    ['a negative timeout', { input: 'openapi.yaml', timeoutInMs: -1 }, /`timeoutInMs` option must be a positive integer, got -1/],
    ['a fractional node budget', { input: 'openapi.yaml', maxReturnSchemaNodes: 1.5 }, /`maxReturnSchemaNodes` option must be a positive integer/],
  ];
  it.each(badOptions)('refuses %s with INVALID_OPTION before reading anything', async (_name, options, message) => {
    await expect(generateManifest(options as never)).rejects.toMatchObject({ code: 'INVALID_OPTION', message: expect.stringMatching(message) });
  });

  it('turns spec violations into warnings with strict: false', async () => {
    const input = { openapi: '3.0.0', info: { title: 'T', version: '1' }, servers: [{ url: 'https://t.example.com' }], paths: { '/a/{id}': { get: { responses: { '200': { description: 'x' } } } } } };
    const { manifest, warnings } = await generateManifest({ input, strict: false });
    expect(validateManifest(manifest).valid).toBe(true);
    expect(warnings.map((warning) => warning.code)).toEqual(expect.arrayContaining(['openapi.invalid', 'parameter.path_undeclared']));
  });

  it('drops a pattern that is not a Unicode regular expression and says so', async () => {
    const input = {
      openapi: '3.0.0',
      info: { title: 'T', version: '1' },
      servers: [{ url: 'https://t.example.com' }],
      paths: { '/a': { get: { parameters: [{ name: 'q', in: 'query', schema: { type: 'string', pattern: '^[a-z\\_]+$' } }], responses: { '200': { description: 'x' } } } } },
    };
    const { manifest, warnings } = await generateManifest({ input });
    expect(manifest.tools[0]!.parameters?.['q']?.json_schema).toEqual({ type: 'string' });
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'schema.keyword_dropped', message: expect.stringContaining('not valid in Unicode mode') }));
  });
});

describe('generateManifest: a body that cannot be flattened', () => {
  it('declares the whole-body parameter as body_parameter, and the manifest validates', async () => {
    const description = {
      openapi: '3.1.0',
      info: { title: 'Tags', version: '1.0.0' },
      servers: [{ url: 'https://tags.example.com' }],
      paths: {
        '/items/{id}/tags': {
          put: {
            operationId: 'replaceTags',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            requestBody: { required: true, content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } },
            responses: { '204': { description: 'Replaced' } },
          },
        },
      },
    };
    const { manifest } = await generateManifest({ input: description });
    const tool = manifest.tools.find((candidate) => candidate.path === '/items/{id}/tags');
    expect(tool?.body_parameter).toBe('body');
    expect(tool?.parameters?.['body']).toMatchObject({ type: 'array', in: 'body', required: true });
    expect(validateManifest(manifest).issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  });
});

describe('generateManifest: component references', () => {
  it('produces parameter schemas whose shared definitions the client can compile and enforce (recursive Tag)', async () => {
    const { validateToolArguments } = await import('../client/call/validate-tool-arguments.js');
    const description = {
      openapi: '3.1.0',
      info: { title: 'Tags', version: '1.0.0' },
      servers: [{ url: 'https://tags.example.com' }],
      components: { schemas: { Tag: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/components/schemas/Tag' } }, required: ['name'] } } },
      paths: {
        '/tags': {
          post: {
            operationId: 'addTag',
            requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { tag: { $ref: '#/components/schemas/Tag' } } } } } },
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    const { manifest } = await generateManifest({ input: description });
    const tool = manifest.tools[0]!;
    expect(() => validateToolArguments(tool, { tag: { name: 'a', child: { name: 'b', child: { name: 'c' } } } }, manifest)).not.toThrow();
    expect(() => validateToolArguments(tool, { tag: { name: 'a', child: { child: { name: 'c' } } } }, manifest)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENTS' }));
  });
});

describe('generateManifest: real-API hygiene', () => {
  const base = { openapi: '3.1.0', info: { title: 'Hygiene', version: '1.0.0' }, servers: [{ url: 'https://api.example.com' }] };

  it('gives GET and HEAD no body parameter, and warns only when the ignored body declared something', async () => {
    const emptyForm = { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: {}, additionalProperties: false } } } };
    const withFields = { content: { 'application/json': { schema: { type: 'object', properties: { filter: { type: 'string' } } } } } };
    const { manifest, warnings } = await generateManifest({
      input: {
        ...base,
        paths: {
          '/account': {
            get: { operationId: 'getAccount', requestBody: emptyForm, responses: { '200': { description: 'ok' } } },
            head: { operationId: 'headAccount', requestBody: withFields, responses: { '200': { description: 'ok' } } },
          },
        },
      },
    });
    expect(manifest.tools.map((tool) => [tool.id, tool.parameters, tool.body_parameter])).toEqual([
      ['getAccount', undefined, undefined],
      ['headAccount', undefined, undefined],
    ]);
    expect(warnings.filter((warning) => warning.code === 'body.ignored').map((warning) => warning.where)).toEqual(['HEAD /account']);
  });

  it('drops secret-looking examples and defaults, in definitions too, with one warning naming the operations, so the server accepts the manifest', async () => {
    const { createManifestHandler } = await import('../server/create-manifest-handler.js');
    const key = `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA${'x'.repeat(40)}\n-----END RSA PRIVATE KEY-----`;
    const { manifest, warnings } = await generateManifest({
      input: {
        ...base,
        components: {
          schemas: {
            App: { type: 'object', properties: { pem: { type: 'string', example: key }, client_secret: { type: 'string', example: 'a1b2c3d4e5f6' }, name: { type: 'string', example: 'My app' } } },
          },
        },
        paths: {
          '/apps': {
            get: {
              operationId: 'listApps',
              parameters: [{ name: 'api_key', in: 'query', schema: { type: 'string', default: 'ghp_' + 'a'.repeat(36) } }],
              responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/App' } } } } } },
            },
          },
          '/ping': { get: { operationId: 'ping', responses: { '200': { description: 'ok' } } } },
        },
      },
    });
    const text = JSON.stringify(manifest);
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain('a1b2c3d4e5f6');
    expect(text).not.toContain('ghp_');
    // Harmless examples stay.
    expect(manifest.definitions?.['App']).toMatchObject({ properties: { name: { examples: ['My app'] } } });
    const secret = warnings.filter((warning) => warning.code === 'example.secret_dropped');
    expect(secret).toHaveLength(1);
    expect(secret[0]!.message).toContain('GET /apps');
    expect(secret[0]!.message).not.toContain('GET /ping');
    expect(() => createManifestHandler({ manifest })).not.toThrow();
  });

  it("splits a request body's example onto its body parameters, leaving out the secret-looking ones", async () => {
    const token = 'ghp_' + 'b'.repeat(36);
    const schema = { type: 'object', properties: { name: { type: 'string' }, token: { type: 'string' } } };
    const { manifest, warnings } = await generateManifest({
      input: {
        ...base,
        paths: {
          '/apps': {
            post: {
              operationId: 'createApp',
              requestBody: { content: { 'application/json': { schema, example: { name: 'My app', token } } } },
              responses: { '201': { description: 'created' } },
            },
          },
        },
      },
    });
    expect(manifest.tools[0]?.parameters?.['name']?.example).toBe('My app');
    expect(JSON.stringify(manifest)).not.toContain('ghp_');
    expect(warnings.filter((warning) => warning.code === 'example.secret_dropped')).toEqual([expect.objectContaining({ where: 'POST /apps' })]);
  });

  it('leaves out a parameter example the poisoning scan would report, so that a sample message does not hold its tool back', async () => {
    const { scanManifest } = await import('../manifest/scan-manifest.js');
    const schema = { type: 'object', properties: { OptInMessage: { type: 'string' }, Description: { type: 'string' } } };
    // Twilio Messaging's own sample: "You are now …" reads as a role reassignment.
    const example = { OptInMessage: 'Acme Corporation: You are now opted-in. For help, reply HELP. To opt-out, reply STOP', Description: 'Send marketing messages' };
    const { manifest, warnings } = await generateManifest({
      input: {
        ...base,
        paths: { '/campaigns': { post: { operationId: 'createCampaign', requestBody: { content: { 'application/json': { schema, example } } }, responses: { '201': { description: 'created' } } } } },
      },
    });
    const parameters = manifest.tools[0]?.parameters;
    expect(parameters?.['OptInMessage']).not.toHaveProperty('example');
    expect(parameters?.['Description']?.example).toBe('Send marketing messages');
    expect(scanManifest(manifest).findings).toEqual([]);
    expect(warnings.filter((warning) => warning.code === 'example.flagged_dropped')).toEqual([expect.objectContaining({ where: 'POST /campaigns' })]);
  });

  it('skips header parameters a manifest may not declare, with a warning', async () => {
    const { manifest, warnings } = await generateManifest({
      input: {
        ...base,
        paths: {
          '/items': {
            get: {
              operationId: 'listItems',
              parameters: [
                { name: 'Host', in: 'header', schema: { type: 'string' } },
                { name: 'X-Tenant', in: 'header', schema: { type: 'string' } },
              ],
              responses: { '200': { description: 'ok' } },
            },
          },
        },
      },
    });
    expect(Object.keys(manifest.tools[0]!.parameters ?? {})).toEqual(['X-Tenant']);
    expect(warnings.map((warning) => warning.code)).toContain('parameter.forbidden_header');
  });

  it('warns about an x-ai-errors entry without status instead of dropping it silently', async () => {
    const { manifest, warnings } = await generateManifest({
      input: {
        ...base,
        paths: {
          '/items': {
            post: {
              operationId: 'addItem',
              'x-ai-errors': { oops: { context: 'Something' }, not_found: { context: 'No such list' } },
              responses: { '201': { description: 'ok' }, '404': { description: 'missing' } },
            },
          },
        },
      },
    });
    expect(manifest.tools[0]!.errors).toEqual({ not_found: { status: 404, context: 'No such list' } });
    expect(warnings.find((warning) => warning.code === 'x-ai-errors.no_status')).toMatchObject({ where: 'POST /items', message: expect.stringContaining('"not_found"') });
  });

  it('points an overlay error keyed by a status into the overlay file, naming the generated code', async () => {
    const overlay = parseManifestOverlay('tools:\n  addItem:\n    errors:\n      "422": { context: Fix the fields }\n', 'my.overlay.yaml');
    const input = { ...base, paths: { '/items': { post: { operationId: 'addItem', responses: { '201': { description: 'ok' }, '422': { description: 'invalid' } } } } } };
    await expect(generateManifest({ input, overlay })).rejects.toMatchObject({
      code: 'OPENAPI_INVALID',
      message: expect.stringMatching(/^my\.overlay\.yaml: \/tools\/addItem\/errors\/422: .*"unprocessable_entity"/),
    });
  });
});

describe('generateManifest: repeated parameters', () => {
  it('writes a parameter that several operations repeat word for word once, as a shared definition', async () => {
    const limit = {
      name: 'limit',
      in: 'query',
      description: `limit is a maximum number of responses to return for a list call.${' More words about paging.'.repeat(8)}`,
      schema: { type: 'integer', minimum: 1 },
    };
    const operation = (operationId: string) => ({ operationId, parameters: [{ $ref: '#/components/parameters/limit' }], responses: { '200': { description: 'ok' } } });
    const { manifest } = await generateManifest({
      input: {
        openapi: '3.1.0',
        info: { title: 'K', version: '1' },
        servers: [{ url: 'https://k.example.com' }],
        components: { parameters: { limit } },
        paths: { '/pods': { get: operation('listPods') }, '/nodes': { get: operation('listNodes') } },
      },
    });
    expect(manifest.tools.map((tool) => tool.parameters?.['limit'])).toEqual([
      { type: 'integer', in: 'query', json_schema: { $ref: '#/definitions/parameter.limit' } },
      { type: 'integer', in: 'query', json_schema: { $ref: '#/definitions/parameter.limit' } },
    ]);
    expect(manifest.definitions?.['parameter.limit']).toEqual({ description: limit.description, type: 'integer', minimum: 1 });
    expect(validateManifest(manifest).valid).toBe(true);
    // What a model reads is unchanged: the definition, reached once by each tool, sits in place of its reference.
    const { argumentsSchema } = await import('../manifest/arguments-schema.js');
    const schema = argumentsSchema(manifest.tools[0]!, { definitions: manifest.definitions });
    expect(schema.properties['limit']).toEqual({ description: limit.description, type: 'integer', minimum: 1 });
    expect(schema.$defs).toBeUndefined();
  });
});
