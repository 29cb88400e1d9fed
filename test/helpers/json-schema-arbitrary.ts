/**
 * A fast-check arbitrary of values valid for a JSON Schema, as an LLM bound by that schema would
 * produce them: used to check that what an exported tool schema allows is what `client.call`
 * accepts. Sizes are bounded (depth, array lengths, string lengths); keywords it does not know are
 * ignored, so a value may break one of them (the round-trip test reports which).
 */
import fc, { type Arbitrary } from 'fast-check';

type Schema = Record<string, unknown>;

const MAX_DEPTH = 6;
const FORMATS: Record<string, () => Arbitrary<string>> = {
  'date-time': () => fc.date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString()),
  date: () => fc.date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
  time: () => fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([hour, minute]) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00Z`),
  email: () => fc.emailAddress(),
  uuid: () => fc.uuid(),
  uri: () => fc.webUrl(),
  url: () => fc.webUrl(),
  'uri-reference': () => fc.webUrl(),
  ipv4: () => fc.ipV4(),
  ipv6: () => fc.ipV6(),
  hostname: () => fc.domain(),
  duration: () => fc.constantFrom('P1D', 'PT1H', 'P2W'),
  int32: () => fc.integer().map(String),
};

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Values valid for `schema` (whose local `$ref`s resolve against `root`). */
export function arbitraryFromSchema(schema: unknown, root: Schema = isSchema(schema) ? schema : {}, depth = 0): Arbitrary<unknown> {
  if (schema === true || schema === undefined) return fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.boolean());
  if (!isSchema(schema)) return fc.constant(null);
  if (typeof schema['$ref'] === 'string') {
    let target: unknown = root;
    for (const token of (schema['$ref'] as string).slice(2).split('/')) target = isSchema(target) ? target[token.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
    const { $ref: _reference, ...siblings } = schema;
    return arbitraryFromSchema(isSchema(target) ? merge(target, siblings) : target, root, depth + 1);
  }
  if ('const' in schema) return fc.constant(schema['const']);
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  const branches = (schema['anyOf'] ?? schema['oneOf']) as unknown[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) {
    const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = schema;
    return fc.oneof(...branches.map((branch) => arbitraryFromSchema(isSchema(branch) ? merge(rest, resolve(branch, root)) : branch, root, depth + 1)));
  }
  if (Array.isArray(schema['allOf'])) {
    const { allOf, ...rest } = schema;
    let merged: Schema = rest;
    for (const branch of allOf as unknown[]) if (isSchema(branch)) merged = merge(merged, resolve(branch, root));
    return arbitraryFromSchema(merged, root, depth + 1);
  }
  const types = (Array.isArray(schema['type']) ? schema['type'] : schema['type'] === undefined ? inferTypes(schema) : [schema['type']]) as string[];
  const nullable = schema['nullable'] === true;
  const choices = types.map((type) => typed(type, schema, root, depth));
  if (nullable) choices.push(fc.constant(null));
  return choices.length === 1 ? choices[0]! : fc.oneof(...choices);
}

/** Follows one local `$ref` (with its siblings merged in). */
function resolve(schema: Schema, root: Schema): Schema {
  if (typeof schema['$ref'] !== 'string') return schema;
  let target: unknown = root;
  for (const token of (schema['$ref'] as string).slice(2).split('/')) target = isSchema(target) ? target[token.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
  const { $ref: _reference, ...siblings } = schema;
  return isSchema(target) ? merge(resolve(target, root), siblings) : siblings;
}

/** Both schemas at once, as far as this generator reads them: properties and required united, other keywords from `b`. */
function merge(a: Schema, b: Schema): Schema {
  const merged: Schema = { ...a, ...b };
  if (isSchema(a['properties']) || isSchema(b['properties'])) merged['properties'] = { ...(a['properties'] as Schema | undefined), ...(b['properties'] as Schema | undefined) };
  if (Array.isArray(a['required']) || Array.isArray(b['required'])) merged['required'] = [...((a['required'] as string[]) ?? []), ...((b['required'] as string[]) ?? [])];
  if (a['type'] !== undefined && b['type'] === undefined) merged['type'] = a['type'];
  return merged;
}

function inferTypes(schema: Schema): string[] {
  if (isSchema(schema['properties'])) return ['object'];
  if (schema['items'] !== undefined) return ['array'];
  return ['string', 'integer', 'boolean'];
}

function typed(type: string, schema: Schema, root: Schema, depth: number): Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number': {
      const minimum = typeof schema['minimum'] === 'number' ? schema['minimum'] : typeof schema['exclusiveMinimum'] === 'number' ? schema['exclusiveMinimum'] + 1 : -1000;
      const maximum = typeof schema['maximum'] === 'number' ? schema['maximum'] : typeof schema['exclusiveMaximum'] === 'number' ? schema['exclusiveMaximum'] - 1 : minimum + 2000;
      const step = typeof schema['multipleOf'] === 'number' && Number.isInteger(schema['multipleOf']) ? schema['multipleOf'] : 1;
      const low = Math.ceil(minimum / step);
      const high = Math.floor(maximum / step);
      return low > high ? fc.constant(minimum) : fc.integer({ min: low, max: Math.min(high, low + 100_000) }).map((value) => value * step);
    }
    case 'string':
      return stringOf(schema);
    case 'array': {
      const minItems = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
      const maxItems = Math.max(minItems, Math.min(typeof schema['maxItems'] === 'number' ? schema['maxItems'] : 3, 3));
      if (depth >= MAX_DEPTH) return fc.constant([]);
      const items = arbitraryFromSchema(schema['items'] ?? true, root, depth + 1);
      return schema['uniqueItems'] === true
        ? fc.uniqueArray(items, { minLength: minItems, maxLength: maxItems, selector: (value) => JSON.stringify(value) })
        : fc.array(items, { minLength: minItems, maxLength: maxItems });
    }
    case 'object': {
      const properties = isSchema(schema['properties']) ? schema['properties'] : {};
      const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
      const record: Record<string, Arbitrary<unknown>> = {};
      for (const [name, child] of Object.entries(properties)) {
        // Deep optional members are left out so that recursive schemas stay finite.
        if (depth >= MAX_DEPTH && !required.has(name)) continue;
        record[name] = arbitraryFromSchema(child, root, depth + 1);
      }
      // A required member that is not declared takes the additionalProperties schema.
      for (const name of required)
        if (!Object.hasOwn(record, name) && schema['additionalProperties'] !== false)
          record[name] = arbitraryFromSchema(isSchema(schema['additionalProperties']) ? schema['additionalProperties'] : true, root, depth + 1);
      const requiredKeys = Object.keys(record).filter((name) => required.has(name));
      return fc.record(record, { requiredKeys });
    }
    default:
      return fc.constant(null);
  }
}

function stringOf(schema: Schema): Arbitrary<string> {
  const format = typeof schema['format'] === 'string' ? FORMATS[schema['format']] : undefined;
  if (format) return format();
  if (typeof schema['pattern'] === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema['pattern'] as string, 'u')).filter((value) => value.length <= 200);
    } catch {
      // A pattern JavaScript cannot compile: plain strings (the round trip reports a `pattern` failure).
    }
  }
  const minLength = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const maxLength = Math.max(minLength, Math.min(typeof schema['maxLength'] === 'number' ? schema['maxLength'] : 12, 12));
  return fc.string({ minLength, maxLength });
}
