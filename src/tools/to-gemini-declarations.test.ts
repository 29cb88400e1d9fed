import { describe, expect, it } from 'vitest';
import { toolWithParameters } from '../../test/helpers/tool-with-parameters.js';
import { toGeminiDeclarations } from './to-gemini-declarations.js';

type Node = Record<string, unknown>;
const propertiesOf = (schema: Node | undefined): Record<string, Node> => schema!['properties'] as Record<string, Node>;

describe('toGeminiDeclarations', () => {
  it('leaves parameters out of a tool that takes none (Gemini rejects an empty object schema)', () => {
    const ping = toolWithParameters('ping', {});
    expect(toGeminiDeclarations([ping]).tools).toEqual([{ name: 'ping', description: ping.description }]);
    expect(toGeminiDeclarations([ping], { jsonSchema: true }).tools[0]).not.toHaveProperty('parametersJsonSchema');
  });

  it('reduces to the Schema subset: const to a one-value enum, [type, null] to nullable, oneOf to anyOf', () => {
    const tool = toolWithParameters('t', {
      kind: { type: 'string', required: true, json_schema: { const: 'card' } },
      note: { type: 'string', json_schema: { type: ['string', 'null'] } },
      target: { type: 'object', json_schema: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
    });
    const { tools, dropped } = toGeminiDeclarations([tool]);
    const properties = propertiesOf(tools[0]!.parameters);
    expect(properties['kind']).toEqual({ enum: ['card'], type: 'string' });
    expect(properties['note']).toEqual({ type: 'string', nullable: true });
    expect(properties['target']).toEqual({ anyOf: [{ type: 'string' }, { type: 'integer' }] });
    expect(dropped.map((entry) => `${entry.pointer} ${entry.keyword}`)).toEqual(expect.arrayContaining(['/properties/kind/const const', '/properties/target/oneOf oneOf']));
    expect(tools[0]).not.toHaveProperty('parametersJsonSchema');
  });

  it('drops a non-string enum and an unsupported format, and says so, instead of sending what Gemini rejects', () => {
    const tool = toolWithParameters('t', {
      level: { type: 'integer', json_schema: { type: 'integer', enum: [1, 2, 3] } },
      site: { type: 'string', json_schema: { type: 'string', format: 'uri' } },
      when: { type: 'string', json_schema: { type: 'string', format: 'date-time' } },
    });
    const { tools, dropped } = toGeminiDeclarations([tool]);
    const properties = propertiesOf(tools[0]!.parameters);
    expect(properties['level']).toEqual({ type: 'integer' });
    expect(properties['site']).toEqual({ type: 'string' });
    expect(properties['when']).toEqual({ type: 'string', format: 'date-time' });
    expect(dropped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: '/properties/level/enum', note: 'Gemini enums hold strings only' }),
        expect.objectContaining({ pointer: '/properties/site/format', note: 'format "uri" is not supported by Gemini' }),
      ]),
    );
  });

  it('folds allOf composition into one schema (properties and required united)', () => {
    const tool = toolWithParameters('t', {
      customer: {
        type: 'object',
        required: true,
        json_schema: {
          allOf: [
            { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
            { properties: { email: { type: 'string' } }, required: ['email'] },
          ],
        },
      },
    });
    const customer = propertiesOf(toGeminiDeclarations([tool]).tools[0]!.parameters)['customer']!;
    expect(customer['type']).toBe('object');
    expect(Object.keys(customer['properties'] as Node).sort()).toEqual(['email', 'name']);
    expect((customer['required'] as string[]).sort()).toEqual(['email', 'name']);
    expect(customer).not.toHaveProperty('allOf');
  });

  it('renames property names Gemini rejects in both forms, in required too, and reports the rename', () => {
    const tool = toolWithParameters('t', { 'if-match': { type: 'string', in: 'header', required: true }, body: { type: 'string' } });
    for (const jsonSchema of [false, true]) {
      const { tools, dropped } = toGeminiDeclarations([tool], { jsonSchema });
      const schema = (jsonSchema ? tools[0]!.parametersJsonSchema : tools[0]!.parameters)!;
      expect(Object.keys(propertiesOf(schema))).toEqual(['if_match', 'body']);
      expect(schema['required']).toEqual(['if_match']);
      expect(dropped).toContainEqual(expect.objectContaining({ pointer: '/properties/if-match', keyword: 'properties', note: expect.stringContaining('renamed "if_match"') }));
    }
  });

  it('jsonSchema: keeps every JSON Schema keyword Gemini’s subset would drop', () => {
    const tool = toolWithParameters('t', { tags: { type: 'array', json_schema: { type: 'array', items: { type: 'string' }, uniqueItems: true } } });
    const { tools, dropped } = toGeminiDeclarations([tool], { jsonSchema: true });
    expect(propertiesOf(tools[0]!.parametersJsonSchema)['tags']).toEqual({ type: 'array', items: { type: 'string' }, uniqueItems: true });
    expect(tools[0]).not.toHaveProperty('parameters');
    expect(dropped).toEqual([]);
  });

  it('replaces a boolean schema with an unconstrained string and gives a schema without a type one, reporting both', () => {
    const tool = toolWithParameters('t', { anything: { type: 'string', json_schema: true as never }, untyped: { type: 'string', json_schema: { description: 'Free text' } } });
    const { tools, dropped } = toGeminiDeclarations([tool]);
    const properties = propertiesOf(tools[0]!.parameters);
    expect(properties['anything']).toEqual({ type: 'string' });
    expect(properties['untyped']).toEqual({ description: 'Free text', type: 'string' });
    expect(dropped).toContainEqual(expect.objectContaining({ pointer: '/properties/untyped', keyword: 'type', note: 'missing type set to string' }));
  });

  it('does not change the catalog tool’s own schema', () => {
    const tool = toolWithParameters('t', { 'if-match': { type: 'string', json_schema: { const: 'x' } } });
    const before = JSON.stringify(tool.inputSchema);
    toGeminiDeclarations([tool]);
    toGeminiDeclarations([tool], { jsonSchema: true });
    expect(JSON.stringify(tool.inputSchema)).toBe(before);
  });
});
