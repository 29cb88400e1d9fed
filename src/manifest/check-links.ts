import type { ValidationIssue } from '../errors/validation-issue.js';
import { escapePointerToken } from '../internal/json-pointer.js';
import { isRecord } from '../internal/is-record.js';
import { parseLinkExpression, type LinkExpression } from './parse-link-expression.js';

/** What {@link checkLinks} needs to know about the manifest. */
export interface LinkCheckContext {
  /** Every tool and resource of the manifest by id (both can be called, and both can be linked to). */
  tools: ReadonlyMap<string, Record<string, unknown>>;
  /** The manifest's shared `definitions`, for `$ref` inside `returns` schemas. */
  definitions: Record<string, unknown> | undefined;
}

// A walk through hostile schemas stops here; deeper pointers are accepted unchecked.
const MAX_SCHEMA_STEPS = 64;

/**
 * The checks of spec section 7.20 for one tool's (or resource's) `links`: each target is a tool of the manifest
 * (a warning otherwise: a per-credential variant may omit it), each filled parameter is a parameter
 * of the target, `$arguments` pointers start at a parameter of the tool, and `$result` / `$item`
 * pointers name members the tool's `returns` schema declares, where it declares them.
 */
export function checkLinks(tool: Record<string, unknown>, base: string, context: LinkCheckContext, issues: ValidationIssue[]): void {
  const links = tool['links'];
  if (!Array.isArray(links)) return;
  links.forEach((link, index) => {
    if (!isRecord(link) || typeof link['tool'] !== 'string' || !isRecord(link['parameters'])) return;
    const pointer = `${base}/links/${index}`;
    const target = context.tools.get(link['tool']);
    if (target === undefined) {
      issues.push({
        pointer: `${pointer}/tool`,
        code: 'link.unknown_tool',
        message: `${quote(link['tool'])} is not a tool or resource id of this manifest, so the link is never offered`,
        severity: 'warning',
      });
    }
    const targetParameters = target !== undefined && isRecord(target['parameters']) ? target['parameters'] : {};
    for (const [name, text] of Object.entries(link['parameters'])) {
      const at = `${pointer}/parameters/${escapePointerToken(name)}`;
      if (target !== undefined && !Object.hasOwn(targetParameters, name)) {
        issues.push({ pointer: at, code: 'link.unknown_parameter', message: `tool ${quote(link['tool'])} has no parameter ${quote(name)}`, severity: 'error' });
      }
      const expression = typeof text === 'string' ? parseLinkExpression(text) : undefined;
      if (expression !== undefined) checkExpression(tool, expression, at, context, issues);
    }
  });
}

/** `resolved_by` of each parameter names a tool of the manifest (a warning otherwise, like `link.unknown_tool`). */
export function checkResolvers(parameters: ReadonlyArray<[string, Record<string, unknown>]>, base: string, context: LinkCheckContext, issues: ValidationIssue[]): void {
  for (const parameterEntry of parameters) {
    const name = parameterEntry[0];
    const parameter = parameterEntry[1];
    const resolver = parameter['resolved_by'];
    if (typeof resolver !== 'string' || context.tools.has(resolver)) continue;
    issues.push({
      pointer: `${base}/parameters/${escapePointerToken(name)}/resolved_by`,
      code: 'parameter.unknown_resolver',
      message: `${quote(resolver)} is not a tool or resource id of this manifest`,
      severity: 'warning',
    });
  }
}

function checkExpression(tool: Record<string, unknown>, expression: LinkExpression, pointer: string, context: LinkCheckContext, issues: ValidationIssue[]): void {
  if (expression.source === 'arguments') {
    const first = expression.tokens[0];
    const parameters = isRecord(tool['parameters']) ? tool['parameters'] : {};
    if (first === undefined || !Object.hasOwn(parameters, first)) {
      issues.push({ pointer, code: 'link.unresolved_pointer', message: `$arguments${first === undefined ? '' : `#/${truncate(first)}`} must start with a parameter of this tool`, severity: 'error' });
    }
    return;
  }
  const returns = isRecord(tool['returns']) ? tool['returns'] : undefined;
  const schema = expression.source === 'result' ? returns?.['schema'] : itemSchema(returns, context);
  if (!isRecord(schema)) return;
  const missing = missingToken(schema, expression.tokens, context);
  if (missing !== undefined) {
    const where = expression.source === 'result' ? 'returns.schema' : 'the item schema of returns';
    issues.push({
      pointer,
      code: 'link.unresolved_pointer',
      message: `${quote(`$${expression.source}#${expression.pointer}`)} names ${quote(missing)}, which ${where} does not declare`,
      severity: 'error',
    });
  }
}

function itemSchema(returns: Record<string, unknown> | undefined, context: LinkCheckContext): unknown {
  if (returns === undefined) return undefined;
  const declared = returns['item_schema'];
  // The shorthand form (field → type name) is not a schema; its keys are the item's fields.
  if (isRecord(declared)) {
    const isShorthand = Object.values(declared).every((value) => typeof value === 'string') && !('type' in declared);
    return isShorthand ? { type: 'object', properties: Object.fromEntries(Object.keys(declared).map((key) => [key, {}])) } : declared;
  }
  const whole = resolve(returns['schema'], context);
  return isRecord(whole) ? whole['items'] : undefined;
}

/**
 * The first token of the pointer that the schema rules out, or undefined when the schema allows the
 * path or says nothing about it. Only a token missing from `properties` (with no
 * `additionalProperties` or `patternProperties` schema to admit it) is ruled out: a producer that
 * declares its fields meant those fields.
 */
function missingToken(schema: Record<string, unknown>, tokens: readonly string[], context: LinkCheckContext): string | undefined {
  let candidates: unknown[] = [schema];
  for (const token of tokens) {
    const next: unknown[] = [];
    let open = false;
    for (const candidate of expand(candidates, context)) {
      const step = stepInto(candidate, token);
      if (step === 'open') open = true;
      else if (step !== undefined) next.push(step);
    }
    if (open) return undefined;
    if (next.length === 0) return token;
    candidates = next;
  }
  return undefined;
}

/** One schema's answer for one token: the sub-schema, `'open'` when anything may be there, undefined when nothing may. */
function stepInto(schema: Record<string, unknown>, token: string): unknown {
  const properties = schema['properties'];
  if (isRecord(properties) && Object.hasOwn(properties, token)) return properties[token];
  if (/^(0|[1-9][0-9]*)$/.test(token) && schema['items'] !== undefined) return schema['items'] === true ? 'open' : schema['items'];
  const additional = schema['additionalProperties'];
  if (isRecord(properties) && additional !== true && !isRecord(additional) && schema['patternProperties'] === undefined) return undefined;
  return 'open';
}

const BRANCH_KEYWORDS = ['allOf', 'anyOf', 'oneOf'] as const;

/** The schemas a value must satisfy at once or may satisfy instead: `$ref`, `allOf`, `anyOf`, `oneOf` followed, bounded. */
function expand(schemas: readonly unknown[], context: LinkCheckContext): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const queue = [...schemas];
  for (let steps = 0; queue.length > 0 && steps < MAX_SCHEMA_STEPS; steps++) {
    const schema = resolve(queue.shift(), context);
    if (!isRecord(schema)) continue;
    let branched = false;
    for (const keyword of BRANCH_KEYWORDS) {
      const branches = schema[keyword];
      if (!Array.isArray(branches) || branches.length === 0) continue;
      queue.push(...(branches as unknown[]));
      branched = true;
    }
    if (isRecord(schema['properties']) || schema['items'] !== undefined || !branched) out.push(schema);
  }
  // A walk cut short proves nothing: treat it as open.
  if (queue.length > 0) out.push({});
  return out;
}

function resolve(schema: unknown, context: LinkCheckContext): unknown {
  let current = schema;
  for (let hops = 0; hops < MAX_SCHEMA_STEPS && isRecord(current) && typeof current['$ref'] === 'string'; hops++) {
    const reference = current['$ref'];
    const name = reference.startsWith('#/definitions/') ? reference.slice('#/definitions/'.length) : undefined;
    // A deeper pointer or another form of reference is not followed: the walk treats it as open.
    if (name === undefined || name.includes('/') || context.definitions === undefined) return {};
    current = context.definitions[name];
  }
  return current;
}

function quote(value: string): string {
  return JSON.stringify(truncate(value));
}

function truncate(value: string): string {
  return value.length > 80 ? `${value.slice(0, 80)}…` : value;
}
