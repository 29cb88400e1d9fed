import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { paymentsManifest } from '../../test/helpers/client-manifests.js';
import type { DiscoveredService } from '../client/shapes/client-types.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import { createCatalog, type CatalogTool } from './create-catalog.js';
import { estimateTokens } from './estimate-tokens.js';
import { EXPORT_FORMATS, exportTools } from './export-tools.js';
import { toStrictSchema } from './to-openai-tools.js';

// The rules of each target, written from their documentation independently of the converters.
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const GEMINI_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
const STRICT_ALLOWED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'enum',
  'const',
  'anyOf',
  'items',
  'description',
  '$ref',
  '$defs',
  'pattern',
  'format',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
]);
const GEMINI_ALLOWED = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'pattern',
  'example',
  'default',
  'anyOf',
  'propertyOrdering',
]);
const GEMINI_PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const ANTHROPIC_STRICT_ALLOWED = new Set([
  'type',
  'description',
  'title',
  'enum',
  'const',
  'default',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'anyOf',
  '$ref',
  '$defs',
  'format',
  'pattern',
]);

/** Every schema node (not the member maps `properties`/`$defs`), with its pointer. */
function* schemaNodes(node: unknown, pointer = ''): Generator<[Record<string, unknown>, string]> {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
  const schema = node as Record<string, unknown>;
  yield [schema, pointer];
  for (const key of ['properties', '$defs']) {
    const members = schema[key];
    if (members && typeof members === 'object') for (const [name, child] of Object.entries(members)) yield* schemaNodes(child, `${pointer}/${key}/${name}`);
  }
  if (schema['items']) yield* schemaNodes(schema['items'], `${pointer}/items`);
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    if (Array.isArray(schema[key])) for (const [index, child] of (schema[key] as unknown[]).entries()) yield* schemaNodes(child, `${pointer}/${key}/${index}`);
}

/** OpenAI strict-mode rules: closed objects, all members required, supported keywords only, root object. */
function strictViolations(schema: Record<string, unknown>): string[] {
  const violations: string[] = [];
  if (schema['type'] !== 'object') violations.push('root is not an object');
  for (const [node, pointer] of schemaNodes(schema)) {
    for (const keyword of Object.keys(node)) if (!STRICT_ALLOWED.has(keyword)) violations.push(`${pointer}/${keyword} not allowed`);
    const types = Array.isArray(node['type']) ? node['type'] : [node['type']];
    if (types.includes('object')) {
      if (node['additionalProperties'] !== false) violations.push(`${pointer} is not closed`);
      const keys = Object.keys((node['properties'] as object) ?? {}).sort();
      const required = [...((node['required'] as string[]) ?? [])].sort();
      if (JSON.stringify(keys) !== JSON.stringify(required)) violations.push(`${pointer} does not require every property`);
    }
  }
  return violations;
}

function geminiViolations(schema: Record<string, unknown>): string[] {
  const violations: string[] = [];
  for (const [node, pointer] of schemaNodes(schema)) {
    for (const keyword of Object.keys(node)) if (!GEMINI_ALLOWED.has(keyword)) violations.push(`${pointer}/${keyword} not allowed`);
    if (node['type'] !== undefined && !['string', 'number', 'integer', 'boolean', 'array', 'object'].includes(node['type'] as string))
      violations.push(`${pointer}/type ${JSON.stringify(node['type'])}`);
    if (node['enum'] !== undefined && !(node['enum'] as unknown[]).every((value) => typeof value === 'string')) violations.push(`${pointer}/enum holds non-strings`);
  }
  return violations;
}

function service(manifest: Manifest): DiscoveredService {
  return {
    namespace: 'payments',
    origin: 'https://api.example.com',
    manifestUrl: 'https://api.example.com/m',
    manifest,
    digest: 'sha256-x',
    grantedScopes: undefined,
    findings: [],
    quarantinedToolIds: [],
    disabledToolIds: [],
  };
}

/** Payments plus tools whose schemas stress every converter. */
function stressCatalog(): CatalogTool[] {
  const manifest = paymentsManifest('https://api.example.com/v2');
  manifest.tools.push(
    {
      id: 'search_merchants',
      path: '/merchants',
      method: 'GET',
      description: 'Searches merchants',
      parameters: {
        query: { type: 'string', required: true, json_schema: { type: 'string', minLength: 2, maxLength: 100, format: 'uri-reference', examples: ['coffee'] } },
        category: { type: 'string', enum: ['food', 'travel'], default: 'food' },
        kind: { type: 'object', json_schema: { oneOf: [{ type: 'object', properties: { code: { type: 'string', const: 'x' } }, required: ['code'] }, { type: 'string' }] } },
        tags: { type: 'array', json_schema: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 5 } },
        amount: { type: 'number', json_schema: { type: ['number', 'null'], exclusiveMinimum: 0 } },
        level: { type: 'integer', json_schema: { enum: [1, 2, 3] } },
      },
    },
    { id: 'free_form', path: '/free', method: 'POST', description: 'Takes any metadata', parameters: { metadata: { type: 'object', required: true } } },
    { id: 'no_arguments', path: '/ping', method: 'GET', description: 'Checks the service' },
  );
  return createCatalog([service(manifest)]).tools;
}

const ajv = new Ajv2020({ strict: false, validateFormats: false });

describe('exportTools', () => {
  const tools = stressCatalog();

  it('OpenAI chat completions: function tools with valid names and object parameters', () => {
    const exported = exportTools(tools, 'openai');
    expect(exported.tools).toHaveLength(tools.length);
    for (const tool of exported.tools) {
      expect(tool.type).toBe('function');
      expect(tool.function.name).toMatch(OPENAI_NAME);
      expect(tool.function.parameters['type']).toBe('object');
      expect(() => ajv.compile(tool.function.parameters)).not.toThrow();
      expect(tool.function).not.toHaveProperty('strict');
    }
  });

  it('OpenAI strict: every strict tool satisfies the strict rules; the rest fall back with a warning', () => {
    const exported = exportTools(tools, 'openai-strict');
    const strict = exported.tools.filter((tool) => tool.function.strict);
    expect(strict.map((tool) => tool.function.name)).toEqual(['analyze_transactions', 'list_transactions', 'close_account', 'modify_limits', 'generate_report', 'search_merchants', 'no_arguments']);
    for (const tool of strict) expect(strictViolations(tool.function.parameters)).toEqual([]);
    // The checker itself bites: the non-strict schema of the same tool breaks the rules.
    expect(strictViolations(tools[0]!.inputSchema)).not.toEqual([]);
    expect(exported.warnings).toEqual(['free_form: exported without strict mode: /properties/metadata is an object without declared properties']);
    expect(exported.dropped.map((entry) => `${entry.tool}${entry.pointer}`)).toEqual(
      expect.arrayContaining([
        'search_merchants/properties/query/minLength',
        'search_merchants/properties/query/format',
        'search_merchants/properties/query/examples',
        'search_merchants/properties/category/default',
        'search_merchants/properties/kind/oneOf',
        'search_merchants/properties/tags/uniqueItems',
      ]),
    );
  });

  it('OpenAI strict: optional members become nullable instead of optional', () => {
    const search = exportTools(tools, 'openai-strict').tools.find((tool) => tool.function.name === 'search_merchants')!;
    const properties = search.function.parameters['properties'] as Record<string, Record<string, unknown>>;
    expect(properties['query']!['type']).toBe('string');
    expect(properties['category']).toMatchObject({ type: ['string', 'null'], enum: ['food', 'travel', null] });
    expect(properties['amount']!['type']).toEqual(['number', 'null']);
    expect(properties['level']!['enum']).toEqual([1, 2, 3, null]);
    expect((properties['kind']!['anyOf'] as unknown[]).at(-1)).toEqual({ type: 'null' });
  });

  it('OpenAI Responses: flat function tools, strict variant included', () => {
    for (const format of ['openai-responses', 'openai-responses-strict'] as const) {
      const exported = exportTools(tools, format);
      for (const tool of exported.tools) {
        expect(tool).toMatchObject({ type: 'function', name: expect.stringMatching(OPENAI_NAME), strict: expect.any(Boolean) });
        expect(tool.parameters['type']).toBe('object');
        if (tool.strict) expect(strictViolations(tool.parameters)).toEqual([]);
      }
      expect(exported.tools.some((tool) => tool.strict)).toBe(format === 'openai-responses-strict');
    }
  });

  it('Anthropic: name, description and an object input_schema', () => {
    for (const tool of exportTools(tools, 'anthropic').tools) {
      expect(Object.keys(tool).sort()).toEqual(['description', 'input_schema', 'name']);
      expect(tool.name).toMatch(ANTHROPIC_NAME);
      expect(tool.input_schema.type).toBe('object');
      expect(() => ajv.compile(tool.input_schema)).not.toThrow();
    }
  });

  it('Gemini: only the supported subset, with what was dropped reported', () => {
    const exported = exportTools(tools, 'gemini');
    for (const declaration of exported.tools) {
      expect(declaration.name).toMatch(GEMINI_NAME);
      if (declaration.parameters) expect(geminiViolations(declaration.parameters)).toEqual([]);
    }
    expect(exported.tools.find((declaration) => declaration.name === 'no_arguments')).toEqual({ name: 'no_arguments', description: 'Checks the service.' });
    const search = exported.tools.find((declaration) => declaration.name === 'search_merchants')!;
    const properties = search.parameters!['properties'] as Record<string, Record<string, unknown>>;
    expect(properties['amount']).toEqual({ type: 'number', nullable: true });
    expect(exported.dropped.map((entry) => `${entry.pointer}:${entry.keyword}`)).toEqual(
      expect.arrayContaining([
        '/additionalProperties:additionalProperties',
        '/properties/query/format:format',
        '/properties/kind/oneOf:oneOf',
        '/properties/amount/exclusiveMinimum:exclusiveMinimum',
        '/properties/level/enum:enum',
      ]),
    );
  });

  it('Gemini: keeps pattern and default, renames parameter names Gemini rejects and reports the renames', () => {
    const manifest = paymentsManifest('https://api.example.com/v2');
    manifest.tools = [
      {
        id: 'update_file',
        path: '/files/{file_id}',
        method: 'PUT',
        description: 'Updates a file',
        parameters: {
          file_id: { type: 'string', required: true, json_schema: { type: 'string', pattern: '^[0-9]+$' } },
          'if-match': { type: 'string', in: 'header' },
          if_match: { type: 'string' },
          '2fa': { type: 'string', default: 'x' },
          body: { type: 'object', json_schema: { type: 'object', properties: { 'content-md5': { type: 'string' } }, required: ['content-md5'] } },
        },
      },
    ];
    const [tool] = createCatalog([service(manifest)]).tools;
    for (const format of ['gemini', 'gemini-json-schema'] as const) {
      const exported = exportTools([tool!], format);
      const schema = (exported.tools[0]!.parameters ?? exported.tools[0]!.parametersJsonSchema)!;
      const properties = schema['properties'] as Record<string, Record<string, unknown>>;
      expect(Object.keys(properties)).toEqual(['file_id', 'if_match_2', 'if_match', '_2fa', 'body']);
      for (const [node] of schemaNodes(schema)) for (const name of Object.keys((node['properties'] as object) ?? {})) expect(name).toMatch(GEMINI_PARAMETER_NAME);
      expect(properties['file_id']!['pattern']).toBe('^[0-9]+$');
      expect(properties['_2fa']!['default']).toBe('x');
      expect(properties['body']!['required']).toEqual(['content_md5']);
      expect(schema['required']).toEqual(['file_id']);
      expect(exported.dropped.filter((entry) => entry.keyword === 'properties').map((entry) => entry.pointer)).toEqual([
        '/properties/if-match',
        '/properties/2fa',
        '/properties/body/properties/content-md5',
      ]);
      expect(exported.warnings).toEqual([]);
    }
    expect(exportTools([tool!], 'gemini').tools[0]).not.toHaveProperty('parametersJsonSchema');
    expect(exportTools([tool!], 'gemini-json-schema').tools[0]).not.toHaveProperty('parameters');
  });

  it('Anthropic strict: strict tools close every object, keep optional members optional and drop what strict tool use refuses', () => {
    const exported = exportTools(tools, 'anthropic-strict');
    const strict = exported.tools.filter((tool) => tool.strict === true);
    expect(strict.map((tool) => tool.name)).toEqual(['analyze_transactions', 'list_transactions', 'close_account', 'modify_limits', 'generate_report', 'search_merchants', 'no_arguments']);
    for (const tool of strict) {
      for (const [node, pointer] of schemaNodes(tool.input_schema)) {
        for (const keyword of Object.keys(node)) expect(ANTHROPIC_STRICT_ALLOWED.has(keyword), `${tool.name}${pointer}/${keyword}`).toBe(true);
        if (node['type'] === 'object') expect(node['additionalProperties']).toBe(false);
      }
    }
    const search = strict.find((tool) => tool.name === 'search_merchants')!;
    expect(search.input_schema['required']).toEqual(['query']);
    expect(exported.warnings).toEqual(['free_form: exported without strict mode: /properties/metadata is an object without declared properties']);
    expect(exported.dropped.map((entry) => `${entry.tool}${entry.pointer}`)).toEqual(
      expect.arrayContaining([
        'search_merchants/properties/query/minLength',
        'search_merchants/properties/query/maxLength',
        'search_merchants/properties/tags/maxItems',
        'search_merchants/properties/amount/exclusiveMinimum',
      ]),
    );
  });

  it('Anthropic strict: past the per-request limits (20 strict tools), later tools go without strict mode', () => {
    const manifest = paymentsManifest('https://api.example.com/v2');
    manifest.tools = Array.from({ length: 22 }, (_, index) => ({
      id: `tool_${index}`,
      path: `/t${index}`,
      method: 'POST' as const,
      description: 'A tool',
      parameters: { a: { type: 'string', required: true } },
    }));
    const exported = exportTools(createCatalog([service(manifest)]).tools, 'anthropic-strict');
    expect(exported.tools.filter((tool) => tool.strict).length).toBe(20);
    expect(exported.warnings).toEqual(
      ['tool_20', 'tool_21'].map((name) => `${name}: exported without strict mode: the request would have more than 20 strict tools (Anthropic's strict tool use limit)`),
    );
  });

  it('refuses the removed ai-sdk format with a pointer to aicap/ai-sdk', () => {
    expect(() => exportTools(tools, 'ai-sdk' as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('createAISDKTools from aicap/ai-sdk') }));
  });

  it('MCP: tools that the MCP SDK’s own Tool schema accepts, with HTTP-derived annotations', () => {
    const exported = exportTools(tools, 'mcp');
    for (const tool of exported.tools) expect(() => ToolSchema.parse(tool)).not.toThrow();
    const byName = new Map(exported.tools.map((tool) => [tool.name, tool]));
    expect(byName.get('list_transactions')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(byName.get('close_account')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('refuses an unknown format with INVALID_ARGUMENT', () => {
    expect(() => exportTools(tools, 'llama' as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(EXPORT_FORMATS.join(', ')) }));
  });

  it('refuses a catalog instead of its tools, and undefined, with INVALID_ARGUMENT instead of a TypeError', () => {
    expect(() => exportTools({ tools } as never, 'openai')).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('exportTools needs an array of catalog tools (client.catalog().tools), got a catalog (pass its .tools)') }),
    );
    expect(() => exportTools(undefined as never, 'mcp')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('got undefined') }));
  });

  it.each(EXPORT_FORMATS)('exports an empty list as an empty list, without warnings, in %s', (format) => {
    expect(exportTools([], format)).toEqual({ format, tools: [], dropped: [], warnings: [] });
  });

  it('keeps the order it is given (selected tools stay best first)', () => {
    const reversed = [...tools].reverse();
    expect(exportTools(reversed, 'anthropic').tools.map((tool) => tool.name)).toEqual(reversed.map((tool) => tool.name));
  });
});

describe('Gemini and references', () => {
  it('inlines local $defs (Gemini has no $ref), cutting a recursive definition after two levels and reporting it', () => {
    const manifest = paymentsManifest('https://api.example.com/v2');
    const tag = { $ref: '#/$defs/Tag', $defs: { Tag: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/Tag', description: 'A sub-tag' } }, required: ['name'] } } };
    manifest.tools = [{ id: 'add_tag', path: '/tags', method: 'POST', description: 'Adds a tag', parameters: { tag: { type: 'object', required: true, json_schema: tag } } }];
    const service = {
      namespace: 'p',
      origin: 'https://api.example.com',
      manifestUrl: 'https://api.example.com/.well-known/ai-capabilities',
      manifest,
      digest: 'sha256-x',
      grantedScopes: undefined,
      findings: [],
      quarantinedToolIds: [],
      disabledToolIds: [],
    } as DiscoveredService;
    const exported = exportTools(createCatalog([service]).tools, 'gemini');
    const parameters = exported.tools[0]!.parameters!;
    expect(JSON.stringify(parameters)).not.toContain('$ref');
    expect(geminiViolations(parameters)).toEqual([]);
    const level1 = (parameters['properties'] as Record<string, Record<string, unknown>>)['tag']!;
    expect(level1).toMatchObject({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } });
    const level2 = (level1['properties'] as Record<string, Record<string, unknown>>)['child']!;
    expect(level2).toMatchObject({ type: 'object', description: 'A sub-tag', properties: { name: { type: 'string' } } });
    const level3 = (level2['properties'] as Record<string, Record<string, unknown>>)['child']!;
    expect(level3).toEqual({ type: 'object', description: 'A sub-tag' });
    expect(exported.dropped).toEqual(expect.arrayContaining([expect.objectContaining({ keyword: '$ref', note: expect.stringContaining('recursive reference #/$defs/tag__Tag cut after 2 levels') })]));
  });
});

describe('toStrictSchema', () => {
  it.each([
    [{ type: 'object', properties: { a: { allOf: [{ type: 'string' }] } }, required: ['a'] }, 'uses "allOf"'],
    [{ type: 'object', properties: { a: { type: 'array' } }, required: ['a'] }, 'array without an item schema'],
    [{ type: 'object', properties: { a: {} }, required: ['a'] }, 'has no type'],
    [{ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } }, required: ['c'] } }, required: ['a'] }, '/properties/a requires "c" without declaring it'],
    [
      { type: 'object', properties: { a: { $ref: '#/$defs/map' } }, required: ['a'], $defs: { map: { type: 'object', additionalProperties: { type: 'string' } } } },
      'refers to #/$defs/map, which cannot be strict',
    ],
  ])('explains why %j cannot be strict', (schema, reason) => {
    expect(toStrictSchema('t', schema).reason).toContain(reason);
  });
  it('leaves out optional members and anyOf branches that cannot be strict (a free-form map), reporting them, instead of the whole tool', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        metadata: { $ref: '#/$defs/map' },
        extra: {
          anyOf: [
            { type: 'object', additionalProperties: true },
            { type: 'string', enum: [''] },
          ],
        },
      },
      required: ['name'],
      additionalProperties: false,
      $defs: { map: { type: 'object', additionalProperties: { type: 'string' } } },
    };
    const converted = toStrictSchema('t', schema);
    expect(converted.schema).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, extra: { anyOf: [{ type: 'string', enum: [''] }, { type: 'null' }] } },
      required: ['name', 'extra'],
      additionalProperties: false,
      $defs: {},
    });
    expect(converted.dropped.map((entry) => `${entry.pointer} ${entry.keyword}`)).toEqual(['/properties/metadata properties', '/properties/extra/anyOf/0 anyOf']);
  });

  it('applies the strict rules inside $defs too (every member required, nullable when optional, no extra members)', () => {
    const schema = {
      type: 'object',
      properties: { tag: { $ref: '#/$defs/tag__Tag' } },
      additionalProperties: false,
      $defs: { tag__Tag: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/tag__Tag' } }, required: ['name'] } },
    };
    const strict = toStrictSchema('t', schema).schema;
    expect(strict?.['$defs']).toEqual({
      tag__Tag: {
        type: 'object',
        properties: { name: { type: 'string' }, child: { anyOf: [{ $ref: '#/$defs/tag__Tag' }, { type: 'null' }] } },
        required: ['name', 'child'],
        additionalProperties: false,
      },
    });
  });
});

describe('estimateTokens', () => {
  it('counts the tokens of an export with gpt-tokenizer, loaded on demand', async () => {
    const exported = exportTools(stressCatalog(), 'openai');
    const estimate = await estimateTokens(exported.tools);
    expect(estimate.approximate).toBe(false);
    const characters = JSON.stringify(exported.tools).length;
    // JSON tokenises at roughly 2–6 characters per token.
    expect(estimate.tokens).toBeGreaterThan(characters / 8);
    expect(estimate.tokens).toBeLessThan(characters / 1.5);
    expect((await estimateTokens('hello world')).tokens).toBe(2);
  });
});
