import { argumentsSchema, type ParameterHolder } from '../../manifest/arguments-schema.js';
import type { JsonSchema } from '../../manifest/manifest-v0.js';
import { InvalidArgumentsError } from './invalid-arguments-error.js';
import { isRecord } from '../../internal/is-record.js';

/** Deepest nesting followed when dropping strict-mode nulls; deeper values are left to the validator. */
const MAX_NULL_DEPTH = 32;

/**
 * The arguments a call validates, shows for approval and sends: a deep copy, frozen, taken before
 * anything else looks at them, so that code editing the caller's object (an approval UI, another
 * task) cannot change what was approved after the fact. With `nullMeansAbsent`, a `null` given for
 * an optional field whose schema does not accept `null` is dropped first, as if absent: strict
 * LLM tool formats make every optional field required and nullable, and such a model sends `null`
 * for "not given". Anything else (a non-object, a function) is returned as is, for the validator
 * to refuse with a precise message; values `structuredClone` cannot copy are `INVALID_ARGUMENTS`.
 * @internal
 */
export function snapshotArguments(holder: ParameterHolder & { id: string }, args: unknown, options: { nullMeansAbsent: boolean }): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  let copy: Record<string, unknown>;
  try {
    const plain = copyPlainData(args, 0);
    copy = (plain === NOT_PLAIN ? structuredClone(args) : plain) as Record<string, unknown>;
  } catch (error) {
    // A stack overflow is the engine's word for nesting too deep to copy: say that, not its internals.
    const reason = error instanceof RangeError ? 'they nest too deeply to copy; send flatter data' : error instanceof Error ? error.message : String(error);
    throw new InvalidArgumentsError(holder.id, [{ pointer: '', rule: 'type', message: `arguments must be JSON data (${reason})` }]);
  }
  if (options.nullMeansAbsent) {
    const schema = argumentsSchema(holder) as JsonSchema & Record<string, unknown>;
    dropAbsentNulls(copy, schema, schema, 0);
  }
  return deepFreeze(copy);
}

function dropAbsentNulls(value: unknown, schema: unknown, root: Record<string, unknown>, depth: number): void {
  if (depth > MAX_NULL_DEPTH || typeof value !== 'object' || value === null) return;
  const resolved = resolveLocalReference(schema, root);
  if (!isRecord(resolved)) return;
  if (Array.isArray(value)) {
    for (const item of value) dropAbsentNulls(item, resolved['items'], root, depth + 1);
    return;
  }
  const properties = isRecord(resolved['properties']) ? resolved['properties'] : {};
  const required = Array.isArray(resolved['required']) ? resolved['required'] : [];
  const record = value as Record<string, unknown>;
  for (const [key, child] of Object.entries(record)) {
    if (!Object.hasOwn(properties, key)) continue;
    const childSchema = properties[key];
    if (child === null) {
      if (!required.includes(key) && !acceptsNull(childSchema, root, 0)) delete record[key];
    } else {
      dropAbsentNulls(child, childSchema, root, depth + 1);
    }
  }
}

/** True when `null` may be a real value of the schema (then it is kept and sent). */
function acceptsNull(schema: unknown, root: Record<string, unknown>, depth: number): boolean {
  const resolved = resolveLocalReference(schema, root);
  if (resolved === true || depth > MAX_NULL_DEPTH) return true;
  if (!isRecord(resolved)) return false;
  const type = resolved['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(resolved['enum'])) return resolved['enum'].includes(null);
  if ('const' in resolved) return resolved['const'] === null;
  for (const keyword of ['anyOf', 'oneOf']) {
    const branches = resolved[keyword];
    if (Array.isArray(branches)) return branches.some((branch) => acceptsNull(branch, root, depth + 1));
  }
  // No type at all: any value, null included, is valid.
  return type === undefined && !('$ref' in resolved);
}

/** Follows a `#/$defs/…` reference of the arguments schema (the only kind it contains). */
function resolveLocalReference(schema: unknown, root: Record<string, unknown>): unknown {
  let current = schema;
  for (let hop = 0; hop < 8 && isRecord(current) && typeof current['$ref'] === 'string'; hop++) {
    const match = /^#\/\$defs\/([^/]+)$/.exec(current['$ref']);
    const definitions = root['$defs'];
    if (!match?.[1] || !isRecord(definitions)) return current;
    current = definitions[match[1].replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return current;
}

// Deepest plain data copied by `copyPlainData`; deeper (or cyclic) values go to `structuredClone`.
const MAX_PLAIN_COPY_DEPTH = 32;
const NOT_PLAIN = Symbol('not plain data');

/**
 * The copy `structuredClone` would make of plain data (plain objects, dense arrays without extra
 * properties, primitives), at a fraction of its cost: arguments from a model are JSON. `NOT_PLAIN`
 * for anything else (a `Date`, a `Map`, a function, a cycle, an own `__proto__` key…), which
 * `structuredClone` then copies or refuses.
 */
function copyPlainData(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return typeof value === 'function' || typeof value === 'symbol' ? NOT_PLAIN : value;
  if (depth >= MAX_PLAIN_COPY_DEPTH) return NOT_PLAIN;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype || Object.keys(value).length !== value.length) return NOT_PLAIN;
    const items: unknown[] = [];
    for (const item of value as unknown[]) {
      const copied = copyPlainData(item, depth + 1);
      if (copied === NOT_PLAIN) return NOT_PLAIN;
      items.push(copied);
    }
    return items;
  }
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  const record: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__') return NOT_PLAIN;
    const copied = copyPlainData((value as Record<string, unknown>)[key], depth + 1);
    if (copied === NOT_PLAIN) return NOT_PLAIN;
    record[key] = copied;
  }
  return record;
}

function deepFreeze<T>(value: T): T {
  // A loop, not recursion: a structured clone can be deeper than the call stack.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null || Object.isFrozen(current)) continue;
    Object.freeze(current);
    for (const child of Object.values(current)) pending.push(child);
  }
  return value;
}
