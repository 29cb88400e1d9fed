import { describe, expect, it } from 'vitest';
import { toolWithParameters } from '../../test/helpers/tool-with-parameters.js';
import type { SchemaNode } from './schema-reduction.js';
import { toOpenAIChatTools, toOpenAIResponsesTools, toStrictSchema } from './to-openai-tools.js';

const objectOf = (properties: SchemaNode, required: string[] = []): SchemaNode => ({ type: 'object', properties, required, additionalProperties: false });

describe('toOpenAIChatTools and toOpenAIResponsesTools', () => {
  const order = toolWithParameters('create_order', { item: { type: 'string', required: true }, note: { type: 'string' } });
  const free = toolWithParameters('put_metadata', { metadata: { type: 'object', required: true } });

  it('chat: a function tool per catalog tool, with no strict flag unless asked', () => {
    const { tools, warnings } = toOpenAIChatTools([order]);
    expect(tools).toEqual([{ type: 'function', function: { name: 'create_order', description: order.description, parameters: order.inputSchema } }]);
    expect(warnings).toEqual([]);
  });

  it('chat strict: strict true where the schema can be strict, strict false and a warning where it cannot', () => {
    const { tools, warnings } = toOpenAIChatTools([order, free], { strict: true });
    expect(tools.map((tool) => tool.function.strict)).toEqual([true, false]);
    expect(tools[1]!.function.parameters).toBe(free.inputSchema);
    expect(warnings).toEqual(['put_metadata: exported without strict mode: /properties/metadata is an object without declared properties']);
  });

  it('responses: flat tools that always carry strict, false unless asked', () => {
    expect(toOpenAIResponsesTools([order]).tools).toEqual([{ type: 'function', name: 'create_order', description: order.description, parameters: order.inputSchema, strict: false }]);
    const strict = toOpenAIResponsesTools([order, free], { strict: true });
    expect(strict.tools.map((tool) => tool.strict)).toEqual([true, false]);
    expect(strict.tools[0]!.parameters['required']).toEqual(['item', 'note']);
  });
  it('chat strict: a definition reached once is strict where it now sits, one reached twice stays in $defs', () => {
    const address = { type: 'object', properties: { city: { type: 'string', maxLength: 80 } }, required: ['city'] };
    const json_schema = {
      type: 'object',
      properties: { billing: { $ref: '#/$defs/Address' }, shipping: { $ref: '#/$defs/Address' }, size: { $ref: '#/$defs/Size' } },
      $defs: { Address: address, Size: { enum: ['s', 'm'] } },
    };
    const parcel = toolWithParameters('send_parcel', { parcel: { type: 'object', in: 'body', required: true, json_schema } });
    const { tools, dropped, warnings } = toOpenAIChatTools([parcel], { strict: true });
    expect(warnings).toEqual([]);
    expect(tools[0]!.function.strict).toBe(true);
    const parameters = tools[0]!.function.parameters;
    expect(Object.keys(parameters['$defs'] as object)).toEqual(['parcel__Address']);
    expect(parameters['properties']).toMatchObject({ parcel: { properties: { size: { enum: ['s', 'm', null] } } } });
    expect(dropped.map((entry) => entry.pointer)).toEqual(['/$defs/parcel__Address/properties/city/maxLength']);
  });
});

describe('toStrictSchema', () => {
  it('makes optional members required and nullable, in each form a member can take', () => {
    const { schema, dropped } = toStrictSchema(
      't',
      objectOf(
        {
          name: { type: 'string' },
          kind: { enum: ['a', 'b'] },
          fixed: { const: 'x' },
          either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
          money: { $ref: '#/$defs/Money' },
          both: { type: ['string', 'integer'] },
          id: { type: 'string' },
        },
        ['id'],
      ),
    );
    expect(dropped).toEqual([]);
    expect(schema!['required']).toEqual(['name', 'kind', 'fixed', 'either', 'money', 'both', 'id']);
    expect(schema!['properties']).toEqual({
      name: { type: ['string', 'null'] },
      kind: { enum: ['a', 'b', null] },
      fixed: { enum: ['x', null] },
      either: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
      money: { anyOf: [{ $ref: '#/$defs/Money' }, { type: 'null' }] },
      both: { type: ['string', 'integer', 'null'] },
      id: { type: 'string' },
    });
  });

  it('drops unsupported keywords and formats and reports each with its pointer', () => {
    const { schema, dropped } = toStrictSchema('t', objectOf({ site: { type: 'string', format: 'uri', minLength: 3 } }, ['site']));
    expect(schema!['properties']).toEqual({ site: { type: 'string' } });
    expect(dropped).toEqual([
      { tool: 't', pointer: '/properties/site/format', keyword: 'format', note: 'format "uri" is not supported in strict mode' },
      { tool: 't', pointer: '/properties/site/minLength', keyword: 'minLength', note: 'not supported in strict mode' },
    ]);
  });

  it('leaves out an optional member that cannot be strict instead of giving up on the tool', () => {
    const { schema, dropped } = toStrictSchema('t', objectOf({ id: { type: 'string' }, metadata: { type: 'object' } }, ['id']));
    expect(Object.keys(schema!['properties'] as object)).toEqual(['id']);
    expect(dropped).toEqual([expect.objectContaining({ pointer: '/properties/metadata', note: expect.stringContaining('optional member left out') })]);
  });

  it.each([
    ['a required free-form object', objectOf({ metadata: { type: 'object' } }, ['metadata']), /\/properties\/metadata is an object without declared properties/],
    ['allOf', objectOf({ x: { allOf: [{ type: 'string' }] } }, ['x']), /uses "allOf"/],
    ['a schema without a type', objectOf({ x: { description: 'anything' } }, ['x']), /\/properties\/x has no type/],
    ['an array without items', objectOf({ x: { type: 'array' } }, ['x']), /array without an item schema/],
    ['a boolean schema', objectOf({ x: true as never }, ['x']), /boolean or non-object schema/],
  ])('gives a reason, not an exception, for %s', (_label, input, reason) => {
    const result = toStrictSchema('t', input);
    expect(result.schema).toBeUndefined();
    expect(result.reason).toMatch(reason);
  });

  it('refuses nesting deeper than 10 levels, and accepts 10', () => {
    const nested = (levels: number): SchemaNode => {
      let node: SchemaNode = { type: 'string' };
      for (let level = 0; level < levels; level++) node = objectOf({ inner: node }, ['inner']);
      return node;
    };
    expect(toStrictSchema('t', nested(10)).schema).toBeDefined();
    expect(toStrictSchema('t', nested(12)).reason).toMatch(/nested deeper than 10 levels/);
  });

  it('leaves out a definition that cannot be strict, and every one that refers to it, keeping the tool strict', () => {
    const { schema } = toStrictSchema('t', {
      ...objectOf({ id: { type: 'string' }, owner: { $ref: '#/$defs/Owner' } }, ['id']),
      $defs: { Owner: objectOf({ tags: { $ref: '#/$defs/Tags' } }, ['tags']), Tags: { type: 'object' } },
    });
    expect(schema!['$defs']).toEqual({});
    expect(Object.keys(schema!['properties'] as object)).toEqual(['id']);
  });

  it('does not change the schema it is given', () => {
    const input = objectOf({ name: { type: 'string', minLength: 1 }, kind: { oneOf: [{ type: 'string' }] } });
    const before = JSON.stringify(input);
    toStrictSchema('t', input);
    expect(JSON.stringify(input)).toBe(before);
  });
});
