import { describe, expect, it } from 'vitest';
import type { ParameterHolder } from './validate-tool-arguments.js';
import { argumentsSchema } from '../../manifest/arguments-schema.js';
import { validateToolArguments } from './validate-tool-arguments.js';
import { InvalidArgumentsError } from './invalid-arguments-error.js';

const tool: ParameterHolder = {
  id: 'generate_report',
  path: '/accounts/{account_id}/reports',
  parameters: {
    account_id: { type: 'string' },
    period: { type: 'string', required: true, json_schema: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}$', maxLength: 7 } },
    format: { type: 'string', enum: ['pdf', 'csv'] },
    when: { type: 'string', json_schema: { type: 'string', format: 'date' } },
    tags: { type: 'array', json_schema: { type: 'array', items: { type: 'string' }, maxItems: 2 } },
  },
};

function problemsOf(args: unknown, holder: ParameterHolder = tool): Array<{ pointer: string; rule: string }> {
  try {
    validateToolArguments(holder, args);
    return [];
  } catch (error) {
    if (!(error instanceof InvalidArgumentsError)) throw error;
    return error.problems.map(({ pointer, rule }) => ({ pointer, rule }));
  }
}

describe('validateToolArguments', () => {
  it('accepts valid arguments', () => {
    expect(problemsOf({ account_id: 'a1', period: '2026-03', format: 'csv', when: '2026-03-01', tags: ['x'] })).toEqual([]);
  });

  it.each([
    ['a missing required parameter', { account_id: 'a1' }, [{ pointer: '/period', rule: 'required' }]],
    ['a missing path placeholder (implicitly required)', { period: '2026-03' }, [{ pointer: '/account_id', rule: 'required' }]],
    ['a wrong type', { account_id: 7, period: '2026-03' }, [{ pointer: '/account_id', rule: 'type' }]],
    ['a value outside the enum', { account_id: 'a', period: '2026-03', format: 'docx' }, [{ pointer: '/format', rule: 'enum' }]],
    ['a pattern mismatch', { account_id: 'a', period: 'March' }, [{ pointer: '/period', rule: 'pattern' }]],
    ['a format mismatch', { account_id: 'a', period: '2026-03', when: 'yesterday' }, [{ pointer: '/when', rule: 'format' }]],
    ['an unknown parameter', { account_id: 'a', period: '2026-03', colour: 'red' }, [{ pointer: '/colour', rule: 'additionalProperties' }]],
    ['a nested violation', { account_id: 'a', period: '2026-03', tags: ['x', 3] }, [{ pointer: '/tags/1', rule: 'type' }]],
    [
      'several problems at once',
      { period: 5, format: 'x' },
      [
        { pointer: '/account_id', rule: 'required' },
        { pointer: '/period', rule: 'type' },
        { pointer: '/format', rule: 'enum' },
      ],
    ],
    ['an array instead of an object', [1], [{ pointer: '', rule: 'type' }]],
    ['null instead of an object', null, [{ pointer: '', rule: 'type' }]],
  ])('names each bad field: %s', (_name, args, expected) => {
    expect(problemsOf(args)).toEqual(expect.arrayContaining(expected));
    expect(problemsOf(args)).toHaveLength(expected.length);
  });

  it('writes a message that says what to do and never echoes the value', () => {
    const secret = 'secret-value-123';
    try {
      validateToolArguments(tool, { account_id: 'a', period: secret });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidArgumentsError);
      expect((error as Error).message).toContain('/period');
      expect((error as Error).message).toContain('nothing was sent');
      expect((error as Error).message).not.toContain(secret);
    }
  });

  it('refuses a tool whose schema has the catastrophic-backtracking shape', () => {
    const hostile: ParameterHolder = { id: 'evil', parameters: { q: { type: 'string', json_schema: { type: 'string', pattern: '^(a|a)*$' } } } };
    expect(() => validateToolArguments(hostile, { q: 'a' })).toThrow(expect.objectContaining({ code: 'TOOL_DISABLED' }));
  });

  it('refuses a remote $ref', () => {
    const hostile: ParameterHolder = { id: 'remote', parameters: { q: { type: 'object', json_schema: { $ref: 'http://169.254.169.254/schema' } } } };
    expect(() => validateToolArguments(hostile, { q: {} })).toThrow(expect.objectContaining({ code: 'TOOL_DISABLED' }));
  });

  it('runs patterns on RE2: a backreference (not expressible in RE2) disables the tool', () => {
    const backreference: ParameterHolder = { id: 'backreference', parameters: { q: { type: 'string', json_schema: { type: 'string', pattern: '^(a)\\1$' } } } };
    expect(() => validateToolArguments(backreference, { q: 'aa' })).toThrow(expect.objectContaining({ code: 'TOOL_DISABLED' }));
  });

  it('matches patterns anywhere in the string, as JSON Schema requires', () => {
    const holder: ParameterHolder = { id: 'search', parameters: { q: { type: 'string', json_schema: { type: 'string', pattern: 'b+' } } } };
    expect(problemsOf({ q: 'abba' }, holder)).toEqual([]);
    expect(problemsOf({ q: 'aaa' }, holder)).toEqual([{ pointer: '/q', rule: 'pattern' }]);
  });

  it('keeps each pattern its own matcher when several tools are compiled', () => {
    const digits: ParameterHolder = { id: 'digits', parameters: { q: { type: 'string', json_schema: { type: 'string', pattern: '^[0-9]+$' } } } };
    const letters: ParameterHolder = { id: 'letters', parameters: { q: { type: 'string', json_schema: { type: 'string', pattern: '^[a-z]+$' } } } };
    expect(problemsOf({ q: '123' }, digits)).toEqual([]);
    expect(problemsOf({ q: 'abc' }, letters)).toEqual([]);
    expect(problemsOf({ q: 'abc' }, digits)).toEqual([{ pointer: '/q', rule: 'pattern' }]);
    expect(problemsOf({ q: '123' }, letters)).toEqual([{ pointer: '/q', rule: 'pattern' }]);
  });

  it('runs patterns on RE2: a backtracking-only construct (lookahead) does not compile, so the tool is disabled', () => {
    const holder: ParameterHolder = { id: 'lookahead', parameters: { q: { type: 'string', json_schema: { type: 'string', pattern: '^(?=a)a$' } } } };
    expect(() => validateToolArguments(holder, { q: 'a' })).toThrow(expect.objectContaining({ code: 'TOOL_DISABLED', message: expect.stringContaining('does not compile') }));
  });

  it('validates a long string against a pattern in linear time', () => {
    const holder: ParameterHolder = { id: 'long', parameters: { q: { type: 'string', json_schema: { type: 'string', pattern: '^[a-z]+!$' } } } };
    expect(problemsOf({ q: 'a'.repeat(100_000) }, holder)).toEqual([{ pointer: '/q', rule: 'pattern' }]);
  });

  it('keeps validators apart per owner: one manifest change compiles afresh, the old owner keeps its own', () => {
    const first = {};
    const second = {};
    expect(problemsOf({ account_id: 'a1', period: '2026-03' })).toEqual([]);
    expect(() => validateToolArguments(tool, { account_id: 'a1', period: '2026-03' }, first)).not.toThrow();
    expect(() => validateToolArguments(tool, { account_id: 'a1', period: 'March' }, second)).toThrow(InvalidArgumentsError);
    expect(() => validateToolArguments(tool, { account_id: 'a1', period: '2026-03' }, first)).not.toThrow();
  });

  it('builds the schema from the simple form, json_schema being authoritative', () => {
    expect(argumentsSchema(tool)).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: expect.arrayContaining(['period', 'account_id']),
      properties: { format: { type: 'string', enum: ['pdf', 'csv'] }, period: { pattern: '^[0-9]{4}-[0-9]{2}$' } },
    });
  });
});
