import { describe, expect, it } from 'vitest';
import type { ValidationIssue } from '../errors/validation-issue.js';
import { checkLinks, checkResolvers, type LinkCheckContext } from './check-links.js';
import { parseLinkExpression } from './parse-link-expression.js';

const getPayment = { parameters: { payment_id: { type: 'string' }, expand: { type: 'string' } } };

function context(definitions?: Record<string, unknown>): LinkCheckContext {
  return { tools: new Map<string, Record<string, unknown>>([['get_payment', getPayment]]), definitions };
}

function issuesOf(tool: Record<string, unknown>, linkContext = context()): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  checkLinks(tool, '/tools/0', linkContext, issues);
  return issues;
}

function linkTo(parameters: Record<string, unknown>, extra: Record<string, unknown> = {}, target = 'get_payment'): Record<string, unknown> {
  return { ...extra, links: [{ tool: target, parameters }] };
}

const returnsPayment = { returns: { schema: { type: 'object', properties: { id: { type: 'string' }, card: { type: 'object', properties: { last4: {} } } } } } };

describe('checkLinks', () => {
  it('accepts a link whose pointer the returns schema declares', () => {
    expect(issuesOf(linkTo({ payment_id: '$result#/id' }, returnsPayment))).toEqual([]);
    expect(issuesOf(linkTo({ payment_id: '$result#/card/last4' }, returnsPayment))).toEqual([]);
  });

  it('warns about a target that is not a tool, and does not check its parameters', () => {
    expect(issuesOf(linkTo({ anything: 'x' }, {}, 'gone'))).toEqual([{ pointer: '/tools/0/links/0/tool', code: 'link.unknown_tool', message: expect.stringContaining('"gone"'), severity: 'warning' }]);
  });

  it('refuses a filled parameter the target lacks, escaping the name in the pointer', () => {
    const [issue] = issuesOf(linkTo({ 'a/b~c': 'x' }));
    expect(issue).toMatchObject({ pointer: '/tools/0/links/0/parameters/a~1b~0c', code: 'link.unknown_parameter', severity: 'error' });
  });

  it('names the first token returns.schema rules out', () => {
    const [issue] = issuesOf(linkTo({ payment_id: '$result#/card/number' }, returnsPayment));
    expect(issue).toMatchObject({ pointer: '/tools/0/links/0/parameters/payment_id', code: 'link.unresolved_pointer', severity: 'error' });
    expect(issue?.message).toContain('"number"');
    expect(issue?.message).toContain('returns.schema');
  });

  it('leaves a pointer alone where the schema is open', () => {
    const open = { returns: { schema: { type: 'object', properties: { id: {} }, additionalProperties: { type: 'string' } } } };
    expect(issuesOf(linkTo({ payment_id: '$result#/other' }, open))).toEqual([]);
    const patterned = { returns: { schema: { type: 'object', properties: { id: {} }, patternProperties: { '^x': {} } } } };
    expect(issuesOf(linkTo({ payment_id: '$result#/xyz' }, patterned))).toEqual([]);
    expect(issuesOf(linkTo({ payment_id: '$result#/x' }, { returns: { schema: { type: 'object' } } }))).toEqual([]);
    expect(issuesOf(linkTo({ payment_id: '$result#/x' }, {}))).toEqual([]);
  });

  it('steps into arrays by index, open where items is true', () => {
    const list = { returns: { schema: { type: 'object', properties: { data: { type: 'array', items: { type: 'object', properties: { id: {} } } } } } } };
    expect(issuesOf(linkTo({ payment_id: '$result#/data/0/id' }, list))).toEqual([]);
    expect(issuesOf(linkTo({ payment_id: '$result#/data/0/nope' }, list))[0]?.message).toContain('"nope"');
    const tuple = { returns: { schema: { type: 'object', properties: { data: { type: 'array', items: true } } } } };
    expect(issuesOf(linkTo({ payment_id: '$result#/data/0/anything' }, tuple))).toEqual([]);
  });

  it('follows $ref into definitions and through allOf, anyOf and oneOf', () => {
    const definitions = { Payment: { type: 'object', properties: { id: {} } }, Extra: { properties: { note: {} } } };
    const viaRef = { returns: { schema: { $ref: '#/definitions/Payment' } } };
    expect(issuesOf(linkTo({ payment_id: '$result#/id' }, viaRef), context(definitions))).toEqual([]);
    expect(issuesOf(linkTo({ payment_id: '$result#/nope' }, viaRef), context(definitions))).toHaveLength(1);
    const combined = { returns: { schema: { allOf: [{ $ref: '#/definitions/Payment' }, { oneOf: [{ $ref: '#/definitions/Extra' }] }] } } };
    expect(issuesOf(linkTo({ payment_id: '$result#/note' }, combined), context(definitions))).toEqual([]);
    expect(issuesOf(linkTo({ payment_id: '$result#/none' }, combined), context(definitions))).toHaveLength(1);
  });

  it('treats a reference it cannot follow as open', () => {
    const external = { returns: { schema: { $ref: 'https://example.com/schema.json' } } };
    expect(issuesOf(linkTo({ payment_id: '$result#/anything' }, external), context({}))).toEqual([]);
    const deep = { returns: { schema: { $ref: '#/definitions/A/properties/b' } } };
    expect(issuesOf(linkTo({ payment_id: '$result#/anything' }, deep), context({}))).toEqual([]);
  });

  it('stops on a $ref cycle and on a schema too wide to walk, without reporting', () => {
    const cycle = { A: { $ref: '#/definitions/B' }, B: { $ref: '#/definitions/A' } };
    expect(issuesOf(linkTo({ payment_id: '$result#/x' }, { returns: { schema: { $ref: '#/definitions/A' } } }), context(cycle))).toEqual([]);
    const wide = { returns: { schema: { anyOf: Array.from({ length: 100 }, () => ({ properties: { id: {} } })) } } };
    expect(issuesOf(linkTo({ payment_id: '$result#/other' }, wide))).toEqual([]);
  });

  it('reads $item from item_schema, its shorthand, or the items of the schema', () => {
    expect(issuesOf(linkTo({ payment_id: '$item#/id' }, { returns: { item_schema: { id: 'string' } } }))).toEqual([]);
    const [shorthand] = issuesOf(linkTo({ payment_id: '$item#/ID' }, { returns: { item_schema: { id: 'string' } } }));
    expect(shorthand?.message).toContain('the item schema of returns');
    const fromItems = { returns: { schema: { type: 'array', items: { properties: { id: {} } } } } };
    expect(issuesOf(linkTo({ payment_id: '$item#/id' }, fromItems))).toEqual([]);
    expect(issuesOf(linkTo({ payment_id: '$item#/x' }, fromItems))).toHaveLength(1);
  });

  it('requires $arguments to start at a parameter of the linking tool', () => {
    const tool = { parameters: { customer: {} } };
    expect(issuesOf(linkTo({ payment_id: '$arguments#/customer/id' }, tool))).toEqual([]);
    expect(issuesOf(linkTo({ payment_id: '$arguments#/nobody' }, tool))[0]).toMatchObject({ code: 'link.unresolved_pointer', message: expect.stringContaining('#/nobody') });
    expect(issuesOf(linkTo({ payment_id: '$arguments#' }, tool))[0]?.code).toBe('link.unresolved_pointer');
  });

  it('truncates long network text in messages to 80 characters', () => {
    const [issue] = issuesOf(linkTo({}, {}, 'x'.repeat(500)));
    expect(issue?.message).toContain(`${'x'.repeat(80)}…`);
    expect(issue?.message).not.toContain('x'.repeat(81));
  });

  it('skips malformed links and literal values instead of throwing', () => {
    expect(issuesOf({ links: 'no' })).toEqual([]);
    expect(issuesOf({ links: [null, { tool: 1, parameters: {} }, { tool: 'get_payment' }] })).toEqual([]);
    expect(issuesOf(linkTo({ payment_id: 'a literal', expand: 42 }, returnsPayment))).toEqual([]);
  });
});

describe('checkResolvers', () => {
  it('warns about a resolved_by that names no tool, at its own pointer', () => {
    const issues: ValidationIssue[] = [];
    checkResolvers(
      [
        ['payment_id', { resolved_by: 'get_payment' }],
        ['a/b', { resolved_by: 'list_things' }],
        ['plain', {}],
      ],
      '/tools/3',
      context(),
      issues,
    );
    expect(issues).toEqual([{ pointer: '/tools/3/parameters/a~1b/resolved_by', code: 'parameter.unknown_resolver', message: expect.stringContaining('"list_things"'), severity: 'warning' }]);
  });
});

describe('parseLinkExpression', () => {
  it('reads the three sources and unescapes tokens', () => {
    expect(parseLinkExpression('$result#/a~1b/c~0d')).toEqual({ source: 'result', pointer: '/a~1b/c~0d', tokens: ['a/b', 'c~d'] });
    expect(parseLinkExpression('$item#')).toEqual({ source: 'item', pointer: '', tokens: [] });
  });

  it('refuses other sources, a missing #, and a bad escape', () => {
    for (const text of ['$response#/a', '$result/a', '$result#a', '$result#/a~2', 'result#/a', ' $result#/a']) expect(parseLinkExpression(text)).toBeUndefined();
  });
});
