import { isRecord } from '../internal/is-record.js';
import { escapePointerToken } from '../internal/json-pointer.js';

/** A keyword removed from a schema while converting it for a target that does not support it. */
export interface DroppedKeyword {
  /** Model-facing tool name. */
  tool: string;
  /** JSON Pointer inside the tool's input schema. */
  pointer: string;
  /** The keyword removed (or changed). */
  keyword: string;
  /** What happened, e.g. "not supported by Gemini" or "const turned into enum". */
  note: string;
}

/** A JSON Schema node as plain data. */
export type SchemaNode = Record<string, unknown>;

/** True for a plain object (a schema node). @internal */
export function isSchemaNode(value: unknown): value is SchemaNode {
  return isRecord(value);
}

/**
 * Throws when an object schema requires members it does not declare: closed for a strict mode, it
 * could never be satisfied. @internal
 */
export function assertRequiredDeclared(pointer: string, properties: SchemaNode, required: ReadonlySet<string>): void {
  const undeclared = [...required].filter((name) => !Object.hasOwn(properties, name));
  if (undeclared.length > 0) throw new Error(`${pointer || '/'} requires ${undeclared.map((name) => JSON.stringify(name)).join(', ')} without declaring ${undeclared.length > 1 ? 'them' : 'it'}`);
}

// Keywords whose values are data, not schemas.
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples']);
// Keywords whose values map names (chosen by the API, so any word) to schemas.
const NAME_MAP_KEYWORDS: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** Limits of {@link inlineReferences}. */
export interface InlineReferencesOptions {
  /** How many times one definition may appear inside itself before the copy stops. @default 2 */
  maxRecursion?: number;
  /** Most schema nodes the inlined result may have; past it, references stay unexpanded. @default 5_000 */
  maxNodes?: number;
}

/**
 * Replaces local references (`#/$defs/…` and other `#/…` pointers into the same schema) with copies
 * of their targets, for targets that do not support `$ref` (Gemini). Keywords beside a `$ref` are
 * kept (they apply together in 2020-12). A recursive definition is copied `maxRecursion` levels deep,
 * then replaced by an unconstrained object; each such cut, and each reference left as it was
 * because the size bound was reached, is reported in `dropped`. `$defs` is removed from the result.
 */
export function inlineReferences(schema: SchemaNode, toolName: string, dropped: DroppedKeyword[], options: InlineReferencesOptions = {}): SchemaNode {
  const maxRecursion = options.maxRecursion ?? 2;
  let budget = options.maxNodes ?? 5_000;
  const resolve = (reference: string): unknown => {
    let node: unknown = schema;
    for (const token of reference.slice(2).split('/')) {
      const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
      node = isSchemaNode(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
    }
    return node;
  };
  const visit = (node: unknown, pointer: string, stack: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item, index) => visit(item, `${pointer}/${index}`, stack));
    if (!isSchemaNode(node)) return node;
    budget--;
    return visitSchema(node, pointer, stack);
  };
  // The members of `properties` and its kin are schemas whatever their names: a property named `default` is not data.
  const visitNameMap = (node: unknown, pointer: string, stack: readonly string[]): unknown => {
    if (!isSchemaNode(node)) return visit(node, pointer, stack);
    const copy: SchemaNode = {};
    for (const [name, child] of Object.entries(node)) copy[name] = visit(child, `${pointer}/${escapePointerToken(name)}`, stack);
    return copy;
  };
  const visitSchema = (node: SchemaNode, pointer: string, stack: readonly string[]): unknown => {
    const reference = node['$ref'];
    if (typeof reference === 'string' && reference.startsWith('#/')) {
      const { $ref: _reference, ...siblings } = node;
      const target = resolve(reference);
      const depth = stack.filter((entry) => entry === reference).length;
      if (target === undefined || budget <= 0 || depth >= maxRecursion) {
        const reason =
          target === undefined
            ? `unresolvable reference ${reference}`
            : budget <= 0
              ? `reference ${reference} not expanded (size bound)`
              : `recursive reference ${reference} cut after ${maxRecursion} levels`;
        dropped.push({ tool: toolName, pointer: `${pointer}/$ref`, keyword: '$ref', note: `${reason}: replaced by an unconstrained object` });
        return visit({ type: 'object', ...siblings }, pointer, stack);
      }
      const expanded = visit(target, pointer, [...stack, reference]);
      return isSchemaNode(expanded) ? { ...expanded, ...(visit(siblings, pointer, stack) as SchemaNode) } : expanded;
    }
    const copy: SchemaNode = {};
    for (const [keyword, child] of Object.entries(node)) {
      if (keyword === '$defs' && pointer === '') continue;
      // Data keywords hold values, not schemas.
      if (DATA_KEYWORDS.has(keyword)) copy[keyword] = child;
      else if (NAME_MAP_KEYWORDS.has(keyword)) copy[keyword] = visitNameMap(child, `${pointer}/${keyword}`, stack);
      else copy[keyword] = visit(child, `${pointer}/${keyword}`, stack);
    }
    return copy;
  };
  return visit(schema, '', []) as SchemaNode;
}
