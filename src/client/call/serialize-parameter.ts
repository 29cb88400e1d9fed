import type { ParameterStyle } from '../../manifest/manifest-v0.js';
import { isRecord } from '../../internal/is-record.js';
import { encodeComponent } from '../../internal/http/encode-component.js';

/** How one value is written: the parameter's `style`/`explode`/`allow_reserved` with OpenAPI's defaults applied. */
export interface Serialisation {
  /** The style. */
  style: ParameterStyle;
  /** One pair (or segment) per array item or object member. */
  explode: boolean;
  /** Query and form values keep RFC 3986 reserved characters (those that do not split the query). */
  allowReserved?: boolean;
}

/** A value that has no representation in the place and style it was declared for. */
export class UnserialisableValueError extends Error {
  override name = 'UnserialisableValueError';
}

/** `name=value` pairs of a query, a form body or a cookie header, each part already percent-encoded. */
export type EncodedPair = [name: string, value: string];

function encodeName(name: string): string {
  return encodeComponent(name).replace(/%5B/g, '[').replace(/%5D/g, ']');
}

/**
 * The text of a primitive: strings as they are, numbers, booleans and null as JSON writes them (a null
 * the schema allows reaches the API as `null`, as it did before styles were carried).
 */
export function primitiveText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  if (value === undefined) return '';
  throw new UnserialisableValueError('is an object or array nested where the declared style allows only primitives');
}

function isComposite(value: unknown): value is unknown[] | Record<string, unknown> {
  return Array.isArray(value) || isRecord(value);
}

function emptyComposite(value: unknown[] | Record<string, unknown>): UnserialisableValueError {
  return new UnserialisableValueError(
    Array.isArray(value)
      ? 'is an empty array, which this style cannot send (it would vanish from the request); leave the argument out instead'
      : 'is an empty object, which this style cannot send (it would vanish from the request); leave the argument out instead',
  );
}

/**
 * Bracket pairs of a nested value: `a[b]=c`, `a[0][b]=c`, `a[0]=x` (the `deepObject` convention of
 * Stripe, Rails and PHP, which OpenAPI leaves undefined below the first level). Raw (unencoded) text.
 */
function bracketPairs(prefix: string, value: unknown, into: Array<[string, string]>): void {
  if (!isComposite(value)) {
    into.push([prefix, primitiveText(value)]);
    return;
  }
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
  if (entries.length === 0) throw emptyComposite(value);
  for (const [key, item] of entries) bracketPairs(`${prefix}[${key}]`, item, into);
}

function encodePairs(pairs: Array<[string, string]>, allowReserved: boolean | undefined): EncodedPair[] {
  return pairs.map(([name, value]) => [encodeName(name), encodeComponent(value, allowReserved)]);
}

const DELIMITERS: Partial<Record<ParameterStyle, string>> = { form: ',', spaceDelimited: '%20', pipeDelimited: '|' };

/**
 * The pairs of a query parameter or a form body field (OpenAPI 3.1 §4.8.12.4 `form`,
 * `spaceDelimited`, `pipeDelimited`, `deepObject`). Arrays of objects and nested objects, which
 * OpenAPI leaves undefined, use bracket names. Throws {@link UnserialisableValueError} for a value
 * the style cannot carry (an empty array or object that would vanish, a nested value in a delimited
 * list).
 */
export function serialiseQueryParameter(name: string, value: unknown, serialisation: Serialisation): EncodedPair[] {
  const { style, explode, allowReserved } = serialisation;
  if (!isComposite(value)) return [[encodeName(name), encodeComponent(primitiveText(value), allowReserved)]];
  const entries = Array.isArray(value) ? value : Object.entries(value).flat();
  const nested = Array.isArray(value) ? value.some(isComposite) : Object.values(value).some(isComposite);
  if (style === 'deepObject' || (nested && (explode || Array.isArray(value)))) {
    const pairs: Array<[string, string]> = [];
    bracketPairs(name, value, pairs);
    return encodePairs(pairs, allowReserved);
  }
  if (explode) {
    if (entries.length === 0) throw emptyComposite(value);
    if (Array.isArray(value)) return value.map((item) => [encodeName(name), encodeComponent(primitiveText(item), allowReserved)]);
    return Object.entries(value).map(([key, item]) => [encodeName(key), encodeComponent(primitiveText(item), allowReserved)]);
  }
  // Not exploded: one pair, items (or keys and values) joined by the style's delimiter; an empty
  // list is an empty value, as OpenAPI's table writes it.
  const delimiter = DELIMITERS[style] ?? ',';
  return [[encodeName(name), entries.map((item) => encodeComponent(primitiveText(item), allowReserved)).join(delimiter)]];
}

/**
 * A path parameter's text, encoded, for its `{name}` placeholder (OpenAPI `simple`, `label`,
 * `matrix`). Throws {@link UnserialisableValueError} for nested values, which no path style defines.
 */
export function serialisePathParameter(name: string, value: unknown, serialisation: Serialisation): string {
  const { style, explode } = serialisation;
  const encode = (text: string): string => encodeComponent(text);
  if (style === 'matrix') {
    if (!isComposite(value)) {
      const text = primitiveText(value);
      return text === '' ? `;${encode(name)}` : `;${encode(name)}=${encode(text)}`;
    }
    if (Array.isArray(value))
      return explode ? value.map((item) => `;${encode(name)}=${encode(primitiveText(item))}`).join('') : `;${encode(name)}=${value.map((item) => encode(primitiveText(item))).join(',')}`;
    const members = Object.entries(value);
    return explode
      ? members.map(([key, item]) => `;${encode(key)}=${encode(primitiveText(item))}`).join('')
      : `;${encode(name)}=${members
          .flat()
          .map((part) => encode(primitiveText(part)))
          .join(',')}`;
  }
  const prefix = style === 'label' ? '.' : '';
  const separator = style === 'label' && explode ? '.' : ',';
  return prefix + simpleText(value, explode, encode, separator);
}

/** A header parameter's value (OpenAPI `simple`): not percent-encoded, since header values are text. */
export function serialiseHeaderParameter(value: unknown, serialisation: Serialisation): string {
  return simpleText(value, serialisation.explode, (text) => text, ',');
}

function simpleText(value: unknown, explode: boolean, encode: (text: string) => string, separator: string): string {
  if (!isComposite(value)) return encode(primitiveText(value));
  if (Array.isArray(value)) return value.map((item) => encode(primitiveText(item))).join(separator);
  const members = Object.entries(value);
  return explode
    ? members.map(([key, item]) => `${encode(key)}=${encode(primitiveText(item))}`).join(separator)
    : members
        .flat()
        .map((part) => encode(primitiveText(part)))
        .join(',');
}

/**
 * The `name=value` pairs of a cookie parameter (OpenAPI `form`): exploded arrays repeat the name,
 * exploded objects send one cookie per member; otherwise one cookie with a comma-separated value.
 */
export function serialiseCookieParameter(name: string, value: unknown, serialisation: Serialisation): EncodedPair[] {
  if (isComposite(value) && Object.values(value).some(isComposite)) throw new UnserialisableValueError('holds nested objects or arrays, which a cookie cannot carry');
  return serialiseQueryParameter(name, value, { ...serialisation, style: 'form', allowReserved: false });
}
