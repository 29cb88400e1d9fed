import { describe, expect, it } from 'vitest';
import { checkDefinitionReferences, type ReferenceScope } from './check-definition-references.js';

describe('checkDefinitionReferences', () => {
  it('reports a repeated bad reference at each of its own pointers (verdicts are reused per scope)', () => {
    const scope: ReferenceScope = { definitions: { pet: { type: 'object', properties: { name: { type: 'string' } } } }, insideDefinition: false };
    const schema = { type: 'object', properties: { a: { $ref: '#/definitions/missing' }, b: { $ref: '#/definitions/missing' }, c: { $ref: '#/definitions/pet' } } };
    const issues = checkDefinitionReferences(schema, '/tools/0/returns/schema', scope);
    expect(issues.map((issue) => [issue.pointer, issue.code])).toEqual([
      ['/tools/0/returns/schema/properties/b/$ref', 'schema.unknown_definition'],
      ['/tools/0/returns/schema/properties/a/$ref', 'schema.unknown_definition'],
    ]);
    // The same reference means something else where the schema has definitions of its own (v0.1).
    expect(checkDefinitionReferences({ definitions: { missing: {} }, $ref: '#/definitions/missing' }, '/x', scope)).toEqual([]);
    // And inside a root definition a pointer into the deeper structure is checked against the target.
    const inside: ReferenceScope = { definitions: scope.definitions, insideDefinition: true };
    expect(checkDefinitionReferences({ $ref: '#/definitions/pet/properties/age' }, '/definitions/owner', inside).map((issue) => issue.code)).toEqual(['schema.unresolved_ref']);
    expect(checkDefinitionReferences({ $ref: '#/definitions/pet/properties/name' }, '/definitions/owner', inside)).toEqual([]);
  });

  it('checks a property named like a data keyword, and skips references inside the data keywords themselves', () => {
    const scope: ReferenceScope = { definitions: {}, insideDefinition: false };
    const schema = { type: 'object', properties: { default: { $ref: '#/definitions/missing' } }, default: { $ref: '#/definitions/also_missing' } };
    expect(checkDefinitionReferences(schema, '/p', scope).map((issue) => issue.pointer)).toEqual(['/p/properties/default/$ref']);
  });
});
