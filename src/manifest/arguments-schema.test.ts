import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { argumentsSchema } from './arguments-schema.js';
import type { Parameter } from './manifest-v0.js';

const tag = {
  $ref: '#/$defs/Tag',
  $defs: { Tag: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/Tag' } }, required: ['name'], additionalProperties: false } },
};

function validator(parameters: Record<string, Parameter>): (data: unknown) => boolean {
  const validate = new Ajv2020({ strict: false }).compile(argumentsSchema({ parameters }));
  return (data) => validate(data);
}

describe('argumentsSchema', () => {
  it('uses the simple form and marks flags and path placeholders as required', () => {
    const schema = argumentsSchema({
      path: '/accounts/{account_id}/items',
      parameters: {
        account_id: { type: 'string' },
        tags: { type: 'array', required: true, description: 'Labels' },
        page: { type: 'integer', default: 1, enum: [1, 2] },
      },
    });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        account_id: { type: 'string' },
        tags: { type: 'array', description: 'Labels', items: {} },
        page: { type: 'integer', enum: [1, 2], default: 1 },
      },
      required: ['tags', 'account_id'],
      additionalProperties: false,
    });
  });

  it('hoists a parameter’s $defs to the root and rewrites its references, so recursive schemas validate', () => {
    const schema = argumentsSchema({ parameters: { tag: { type: 'object', json_schema: tag } } });
    expect(schema.$defs).toEqual({ tag__Tag: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/tag__Tag' } }, required: ['name'], additionalProperties: false } });
    expect(schema.properties['tag']).toEqual({ $ref: '#/$defs/tag__Tag' });
    const validate = validator({ tag: { type: 'object', json_schema: tag } });
    expect(validate({ tag: { name: 'a', child: { name: 'b', child: { name: 'c' } } } })).toBe(true);
    expect(validate({ tag: { name: 'a', child: { child: { name: 'c' } } } })).toBe(false);
  });

  it('rewrites references to the parameter schema’s own root and members', () => {
    const tree = { type: 'object', properties: { value: { type: 'integer' }, left: { $ref: '#' }, copy: { $ref: '#/properties/value' } }, additionalProperties: false };
    const validate = validator({ 'a/b': { type: 'object', json_schema: tree } });
    expect(argumentsSchema({ parameters: { 'a/b': { type: 'object', json_schema: tree } } }).properties['a/b']).toMatchObject({
      properties: { left: { $ref: '#/properties/a~1b' }, copy: { $ref: '#/properties/a~1b/properties/value' } },
    });
    expect(validate({ 'a/b': { value: 1, left: { value: 2, left: { copy: 3 } } } })).toBe(true);
    expect(validate({ 'a/b': { value: 1, left: { copy: 'three' } } })).toBe(false);
  });

  it('keeps definitions of the same name from two parameters apart', () => {
    // Each reached twice, so that they stay hoisted (a definition reached once sits in place of its reference).
    const twice = { anyOf: [{ $ref: '#/$defs/Item' }, { type: 'array', items: { $ref: '#/$defs/Item' } }] };
    const number = { ...twice, $defs: { Item: { type: 'number' } } };
    const text = { ...twice, definitions: { Other: { type: 'boolean' } }, $defs: { Item: { type: 'string' } } };
    const schema = argumentsSchema({ parameters: { a: { type: 'number', json_schema: number }, b: { type: 'string', json_schema: text } } });
    expect(Object.keys(schema.$defs ?? {}).sort()).toEqual(['a__Item', 'b__Item', 'b__Other']);
    const validate = validator({ a: { type: 'number', json_schema: number }, b: { type: 'string', json_schema: text } });
    expect(validate({ a: 1, b: 'x' })).toBe(true);
    expect(validate({ a: 'x', b: 1 })).toBe(false);
  });

  it('leaves the manifest untouched, anchors and nested $id resources as they are', () => {
    const schema = { $ref: '#/$defs/A', $defs: { A: { $anchor: 'a', type: 'string' } }, properties: { inner: { $id: 'urn:inner', $ref: '#/x', x: { type: 'string' } }, named: { $ref: '#a' } } };
    const before = structuredClone(schema);
    const result = argumentsSchema({ parameters: { p: { type: 'object', json_schema: schema, description: 'P' } } });
    expect(schema).toEqual(before);
    expect(result.properties['p']).toMatchObject({ description: 'P', properties: { inner: { $id: 'urn:inner', $ref: '#/x' }, named: { $ref: '#a' } } });
  });

  it('treats a path placeholder without a parameter as a required string', () => {
    const schema = argumentsSchema({ path: '/accounts/{account_id}/summary' });
    expect(schema).toEqual({ type: 'object', properties: { account_id: { type: 'string' } }, required: ['account_id'], additionalProperties: false });
  });

  describe('shared definitions (spec v0.2)', () => {
    const definitions = {
      Tag: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/definitions/Tag' }, color: { $ref: '#/definitions/Color' } }, required: ['name'] },
      Color: { enum: ['red', 'blue'] },
      Unused: { type: 'string' },
    };

    it('hoists the definitions a parameter reaches, transitively and recursively, and nothing else', () => {
      const parameters: Record<string, Parameter> = {
        tag: { type: 'object', json_schema: { $ref: '#/definitions/Tag' } },
        shade: { type: 'string', json_schema: { $ref: '#/definitions/Tag/properties/color' } },
      };
      const schema = argumentsSchema({ parameters }, { definitions });
      expect(schema.properties).toEqual({ tag: { $ref: '#/$defs/Tag' }, shade: { $ref: '#/$defs/Tag/properties/color' } });
      // Color, reached once, sits in place of its reference; Tag is recursive and stays hoisted.
      expect(schema.$defs).toEqual({
        Tag: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/Tag' }, color: { enum: ['red', 'blue'] } }, required: ['name'] },
      });
      const validate = new Ajv2020({ strict: false }).compile(schema);
      expect(validate({ tag: { name: 'a', child: { name: 'b', color: 'red' } }, shade: 'blue' })).toBe(true);
      expect(validate({ tag: { name: 'a', child: { name: 'b', color: 'green' } } })).toBe(false);
      expect(validate({ shade: 'green' })).toBe(false);
    });

    it('keeps a hoisted shared definition apart from a parameter definition that took its name', () => {
      // Every definition reached twice, so that each stays hoisted under its name.
      const own = { anyOf: [{ $ref: '#/$defs/Color' }, { items: { $ref: '#/$defs/Color' } }], $defs: { Color: { type: 'integer' } } };
      const color = { type: 'string', json_schema: { $ref: '#/definitions/Color' } } as const;
      const schema = argumentsSchema(
        { parameters: { c: { type: 'integer', json_schema: own }, Color__x: color, Color__y: color } },
        { definitions: { ...definitions, c__Color: { type: 'boolean' } } },
      );
      expect(schema.$defs).toEqual({ c__Color: { type: 'integer' }, Color: { enum: ['red', 'blue'] } });
      const clash = argumentsSchema(
        {
          parameters: {
            c: { type: 'integer', json_schema: own },
            other: { type: 'boolean', json_schema: { $ref: '#/definitions/c__Color' } },
            again: { type: 'boolean', json_schema: { $ref: '#/definitions/c__Color' } },
          },
        },
        { definitions: { c__Color: { type: 'boolean' } } },
      );
      expect(clash.$defs).toEqual({ c__Color: { type: 'integer' }, c__Color_: { type: 'boolean' } });
      expect(clash.properties['other']).toEqual({ $ref: '#/$defs/c__Color_' });
    });

    it('keeps the v0.1 meaning of #/definitions in a schema that declares its own definitions', () => {
      const local = { anyOf: [{ $ref: '#/definitions/Color' }, { items: { $ref: '#/definitions/Color' } }], definitions: { Color: { type: 'integer' } } };
      const schema = argumentsSchema({ parameters: { n: { type: 'integer', json_schema: local } } }, { definitions });
      expect(schema.$defs).toEqual({ n__Color: { type: 'integer' } });
    });

    it('leaves the shared definitions untouched', () => {
      const before = structuredClone(definitions);
      argumentsSchema({ parameters: { tag: { type: 'object', json_schema: { $ref: '#/definitions/Tag' } } } }, { definitions });
      expect(definitions).toEqual(before);
    });
  });

  it('keeps what an optional body requires required whenever the body is sent (body_required as dependentRequired)', () => {
    const schema = argumentsSchema({
      path: '/orgs/{org}/repos',
      parameters: { org: { type: 'string', in: 'path', required: true }, name: { type: 'string', in: 'body' }, description: { type: 'string', in: 'body' } },
      body_required: ['name'],
    });
    expect(schema.required).toEqual(['org']);
    expect(schema['dependentRequired']).toEqual({ description: ['name'] });
  });

  it('refuses an empty required query or header string unless allow_empty_value says so', () => {
    const schema = argumentsSchema({
      parameters: {
        scopes: { type: 'string', in: 'query', required: true },
        token: { type: 'string', in: 'header', required: true, json_schema: { type: 'string', pattern: '.' } },
        q: { type: 'string', in: 'query', required: true, allow_empty_value: true },
        note: { type: 'string', in: 'body', required: true },
      },
    });
    expect(schema.properties['scopes']).toEqual({ type: 'string', minLength: 1 });
    expect(schema.properties['token']).toEqual({ type: 'string', pattern: '.', minLength: 1 });
    expect(schema.properties['q']).toEqual({ type: 'string' });
    expect(schema.properties['note']).toEqual({ type: 'string' });
  });
});

describe('argumentsSchema: properties named like data keywords', () => {
  it('rewrites a shared reference under a property called default (Kubernetes CapacityRequestPolicy)', () => {
    const definitions = {
      Quantity: { type: 'string' },
      Policy: { type: 'object', properties: { default: { $ref: '#/definitions/Quantity' }, enum: { items: { $ref: '#/definitions/Quantity' }, type: 'array' } } },
    };
    const schema = argumentsSchema({ parameters: { body: { type: 'object', in: 'body', json_schema: { $ref: '#/definitions/Policy' } } } }, { definitions });
    const text = JSON.stringify(schema);
    expect(text).not.toContain('#/definitions/');
    expect(schema.$defs?.['Quantity']).toEqual({ type: 'string' });
  });
});
