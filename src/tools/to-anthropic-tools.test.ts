import { describe, expect, it } from 'vitest';
import { toolWithParameters } from '../../test/helpers/tool-with-parameters.js';
import { toAnthropicStrictSchema, toAnthropicTools } from './to-anthropic-tools.js';

describe('toAnthropicTools', () => {
  const order = toolWithParameters('create_order', {
    item: { type: 'string', required: true },
    note: { type: 'string' },
    address: { type: 'object', json_schema: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string', minLength: 5 } }, required: ['city'] } },
  });

  it('without strict, passes the input schema through as input_schema, with no strict flag', () => {
    const { tools, dropped, warnings } = toAnthropicTools([order]);
    expect(tools).toEqual([{ name: 'create_order', description: order.description, input_schema: order.inputSchema }]);
    expect(dropped).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('strict: closes every object, keeps optional members optional, drops what strict tool use refuses and reports it', () => {
    const [tool] = toAnthropicTools([order], { strict: true }).tools;
    expect(tool!.strict).toBe(true);
    const schema = tool!.input_schema;
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['item']);
    const address = (schema.properties as Record<string, Record<string, unknown>>)['address']!;
    expect(address['additionalProperties']).toBe(false);
    expect(address['required']).toEqual(['city']);
    expect((address['properties'] as Record<string, unknown>)['zip']).toEqual({ type: 'string' });
    const { dropped } = toAnthropicTools([order], { strict: true });
    expect(dropped).toContainEqual(expect.objectContaining({ tool: 'create_order', pointer: '/properties/address/properties/zip/minLength', keyword: 'minLength' }));
  });

  it('strict: does not change the catalog tool’s own schema', () => {
    const before = JSON.stringify(order.inputSchema);
    toAnthropicTools([order], { strict: true });
    expect(JSON.stringify(order.inputSchema)).toBe(before);
  });

  it('strict: a free-form object goes without strict mode, named in warnings with the reason', () => {
    const free = toolWithParameters('put_metadata', { metadata: { type: 'object', required: true } });
    const { tools, warnings } = toAnthropicTools([free, order], { strict: true });
    expect(tools[0]!.strict).toBeUndefined();
    expect(tools[0]!.input_schema).toBe(free.inputSchema);
    expect(tools[1]!.strict).toBe(true);
    expect(warnings).toEqual([expect.stringMatching(/^put_metadata: exported without strict mode: \/properties\/metadata is an object without declared properties$/)]);
  });

  it('strict: past 24 optional parameters in one request, the later tool loses strict mode, the earlier keeps it', () => {
    const optional = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, { type: 'string' as const }]));
    const first = toolWithParameters('first', optional(20));
    const second = toolWithParameters('second', optional(5));
    const { tools, warnings } = toAnthropicTools([first, second], { strict: true });
    expect(tools.map((tool) => tool.strict)).toEqual([true, undefined]);
    expect(warnings).toEqual(["second: exported without strict mode: the request would have more than 24 optional parameters (Anthropic's strict tool use limit)"]);
  });

  it('strict: past 16 union-typed parameters, the later tool loses strict mode', () => {
    const unions = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, index) => [`u${index}`, { type: 'string' as const, required: true, json_schema: { type: ['string', 'null'] } }]));
    const { tools, warnings } = toAnthropicTools([toolWithParameters('a', unions(10)), toolWithParameters('b', unions(7))], { strict: true });
    expect(tools.map((tool) => tool.strict)).toEqual([true, undefined]);
    expect(warnings[0]).toMatch(/^b: .*more than 16 union-typed parameters/);
  });
});

describe('toAnthropicStrictSchema', () => {
  it('refuses a recursive definition with the reference it loops on', () => {
    const result = toAnthropicStrictSchema('tree', {
      type: 'object',
      properties: { node: { $ref: '#/$defs/Node' } },
      required: ['node'],
      $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } },
    });
    expect(result.schema).toBeUndefined();
    expect(result.reason).toMatch(/recursive \(#\/\$defs\/Node\)/);
  });

  it('follows a non-recursive reference and converts the definition too', () => {
    const result = toAnthropicStrictSchema('t', {
      type: 'object',
      properties: { money: { $ref: '#/$defs/Money' } },
      $defs: { Money: { type: 'object', properties: { amount: { type: 'number', minimum: 0 } }, required: ['amount'] } },
    });
    expect(result.reason).toBeUndefined();
    expect(result.schema!['$defs']).toEqual({ Money: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'], additionalProperties: false } });
    expect(result.optional).toBe(1);
  });

  it.each([
    ['a reference outside $defs', { type: 'object', properties: { x: { $ref: 'https://evil.example/schema' } } }, /reference strict mode cannot follow/],
    ['allOf', { type: 'object', properties: { x: { allOf: [{ type: 'string' }] } } }, /uses "allOf"/],
    ['an enum of objects', { type: 'object', properties: { x: { enum: [{ a: 1 }] } } }, /enum holds objects/],
    ['a boolean schema', { type: 'object', properties: { x: true } }, /boolean or non-object schema/],
    ['an array without items', { type: 'object', properties: { x: { type: 'array' } } }, /array without an item schema/],
    ['a required name that is not a property', { type: 'object', properties: { x: { type: 'string' } }, required: ['y'] }, /y/],
  ])('gives a reason, not an exception, for %s', (_label, schema, reason) => {
    const result = toAnthropicStrictSchema('t', schema as never);
    expect(result.schema).toBeUndefined();
    expect(result.reason).toMatch(reason);
  });

  it('turns oneOf into anyOf, drops minItems above 1 and unsupported formats, and counts unions', () => {
    const result = toAnthropicStrictSchema('t', {
      type: 'object',
      properties: { x: { oneOf: [{ type: 'string' }, { type: 'number' }] }, list: { type: 'array', items: { type: 'string', format: 'uri-reference' }, minItems: 3 } },
    });
    expect(result.schema!['properties']).toEqual({ x: { anyOf: [{ type: 'string' }, { type: 'number' }] }, list: { type: 'array', items: { type: 'string' } } });
    expect(result.dropped.map((entry) => entry.keyword).sort()).toEqual(['format', 'minItems', 'oneOf']);
    expect(result.unions).toBe(1);
    expect(result.optional).toBe(2);
  });
});
