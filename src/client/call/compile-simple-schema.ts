import type { RE2JS } from 're2js';
import { loadRe2 } from './load-re2.js';

/** A compiled check of the simple subset: `true` when the value is valid. */
export type SimpleSchemaCheck = (value: unknown) => boolean;

// Keywords that never change a verdict (ajv, with `strict` off, ignores them too).
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment']);
const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const NUMBER_LIMITS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
const LENGTH_LIMITS = ['minLength', 'maxLength', 'minItems', 'maxItems'] as const;
const HANDLED = new Set<string>([
  ...ANNOTATIONS,
  'type',
  'enum',
  'const',
  'pattern',
  'properties',
  'required',
  'additionalProperties',
  'dependentRequired',
  'items',
  ...NUMBER_LIMITS,
  ...LENGTH_LIMITS,
]);

/** Marks a schema outside the subset: the caller then validates with ajv. */
class Unsupported extends Error {}

/**
 * Compiles the JSON Schema subset most tool parameters use (`type`, `enum` and `const` of plain
 * values, number and length limits, `pattern`, `properties`, `required`, `additionalProperties`,
 * `dependentRequired`, `items`, annotations) into a plain check, without ajv: loading and compiling
 * ajv is most of what a one-call process spends on validation. The verdicts are ajv's, as
 * `validateToolArguments` configures it (`strict` off, so `integer` and `number` take any number
 * value, lengths in code points, `pattern` on RE2). Returns `undefined` for any other keyword
 * (`$ref`, `format`, `anyOf`, ...): ajv decides those. The caller asks ajv for the problems of a
 * value this check refuses.
 */
export function compileSimpleSchema(schema: unknown): SimpleSchemaCheck | undefined {
  try {
    return compileNode(schema, 0);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

// Deeper schemas go to ajv, which has no such limit of its own.
const MAX_DEPTH = 32;

function compileNode(schema: unknown, depth: number): SimpleSchemaCheck {
  if (schema === true) return () => true;
  if (schema === false) return () => false;
  if (depth > MAX_DEPTH || !isPlainObject(schema)) throw new Unsupported();
  for (const keyword of Object.keys(schema)) if (!HANDLED.has(keyword)) throw new Unsupported();
  const checks: SimpleSchemaCheck[] = [];
  if (schema['type'] !== undefined) checks.push(typeCheck(schema['type']));
  if (schema['enum'] !== undefined) {
    const allowed = schema['enum'];
    // ajv refuses to compile an empty `enum`.
    if (!Array.isArray(allowed) || allowed.length === 0 || !allowed.every(isPlainValue)) throw new Unsupported();
    checks.push((value) => allowed.includes(value));
  }
  if (Object.hasOwn(schema, 'const')) {
    const expected = schema['const'];
    if (!isPlainValue(expected)) throw new Unsupported();
    checks.push((value) => value === expected);
  }
  for (const keyword of NUMBER_LIMITS) if (schema[keyword] !== undefined) checks.push(numberLimit(keyword, schema[keyword]));
  for (const keyword of LENGTH_LIMITS) if (schema[keyword] !== undefined) checks.push(lengthLimit(keyword, schema[keyword]));
  if (schema['pattern'] !== undefined) checks.push(patternCheck(schema['pattern']));
  if (schema['required'] !== undefined) checks.push(requiredCheck(schema['required']));
  if (schema['dependentRequired'] !== undefined) checks.push(dependentRequiredCheck(schema['dependentRequired']));
  if (schema['properties'] !== undefined || schema['additionalProperties'] !== undefined) checks.push(propertiesCheck(schema['properties'], schema['additionalProperties'], depth));
  if (schema['items'] !== undefined) {
    const item = compileNode(schema['items'], depth + 1);
    checks.push((value) => !Array.isArray(value) || value.every((element) => item(element)));
  }
  return (value) => checks.every((check) => check(value));
}

function typeCheck(type: unknown): SimpleSchemaCheck {
  const names = typeof type === 'string' ? [type] : type;
  if (!Array.isArray(names) || names.length === 0 || new Set(names).size !== names.length || !names.every((name) => typeof name === 'string' && TYPE_NAMES.has(name))) throw new Unsupported();
  const accepted = new Set<unknown>(names);
  return (value) => accepted.has(typeName(value)) || (accepted.has('integer') && isInteger(value));
}

/** The JSON type of a value as ajv tells them apart; an integer is a `number` here. */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

// ajv with `strictNumbers` off (it follows `strict`): any number without a fraction, Infinity included.
function isInteger(value: unknown): boolean {
  return typeof value === 'number' && !(value % 1) && !Number.isNaN(value);
}

function numberLimit(keyword: (typeof NUMBER_LIMITS)[number], limit: unknown): SimpleSchemaCheck {
  if (typeof limit !== 'number' || !Number.isFinite(limit)) throw new Unsupported();
  // Written as "not within" so that NaN fails, as in ajv's code.
  const within: Record<typeof keyword, (value: number) => boolean> = {
    minimum: (value) => value >= limit,
    maximum: (value) => value <= limit,
    exclusiveMinimum: (value) => value > limit,
    exclusiveMaximum: (value) => value < limit,
  };
  const test = within[keyword];
  return (value) => typeof value !== 'number' || test(value);
}

function lengthLimit(keyword: (typeof LENGTH_LIMITS)[number], limit: unknown): SimpleSchemaCheck {
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) throw new Unsupported();
  const isMinimum = keyword === 'minLength' || keyword === 'minItems';
  const measure =
    keyword === 'minLength' || keyword === 'maxLength'
      ? (value: unknown) => (typeof value === 'string' ? codePointLength(value) : undefined)
      : (value: unknown) => (Array.isArray(value) ? value.length : undefined);
  return (value) => {
    const length = measure(value);
    return length === undefined || (isMinimum ? length >= limit : length <= limit);
  };
}

/** Length in code points, as ajv's `ucs2length` counts (a lone surrogate counts as one). */
function codePointLength(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    length++;
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) index++;
  }
  return length;
}

function patternCheck(pattern: unknown): SimpleSchemaCheck {
  if (typeof pattern !== 'string') throw new Unsupported();
  let compiled: RE2JS;
  try {
    compiled = loadRe2().compile(pattern);
  } catch {
    // ajv reports the pattern that does not compile.
    throw new Unsupported();
  }
  return (value) => typeof value !== 'string' || compiled.test(value);
}

function stringList(list: unknown): string[] {
  if (!Array.isArray(list) || !list.every((name) => typeof name === 'string')) throw new Unsupported();
  return list as string[];
}

// ajv's `required` and `properties` look a member up as `data[name] !== undefined` (own or not).
function memberOf(value: Record<string, unknown>, name: string): unknown {
  return value[name];
}

function requiredCheck(required: unknown): SimpleSchemaCheck {
  const names = stringList(required);
  return (value) => !isPlainObject(value) || names.every((name) => memberOf(value, name) !== undefined);
}

function dependentRequiredCheck(dependencies: unknown): SimpleSchemaCheck {
  if (!isPlainObject(dependencies)) throw new Unsupported();
  const entries = Object.entries(dependencies).map(([name, list]) => [name, stringList(list)] as const);
  return (value) => !isPlainObject(value) || entries.every(([name, names]) => memberOf(value, name) === undefined || names.every((other) => memberOf(value, other) !== undefined));
}

function propertiesCheck(properties: unknown, additional: unknown, depth: number): SimpleSchemaCheck {
  if (properties !== undefined && !isPlainObject(properties)) throw new Unsupported();
  const declared = Object.entries(properties ?? {}).map(([name, schema]) => [name, compileNode(schema, depth + 1)] as const);
  const names = new Set(declared.map(([name]) => name));
  const rest = additional === undefined ? undefined : compileNode(additional, depth + 1);
  return (value) => {
    if (!isPlainObject(value)) return true;
    for (const [name, check] of declared) {
      const member = memberOf(value, name);
      if (member !== undefined && !check(member)) return false;
    }
    if (rest === undefined) return true;
    // ajv walks the members with `for…in`.
    for (const key in value) if (!names.has(key) && !rest(value[key])) return false;
    return true;
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPlainValue(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}
