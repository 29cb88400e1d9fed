import type { ValidationIssue } from '../errors/validation-issue.js';
import { checkEmbeddedSchema, DEFAULT_EMBEDDED_SCHEMA_LIMITS, hasUnboundedUniqueItems, patternProblem } from './check-embedded-schema.js';
import { isDataMember } from './reachable-definitions.js';
import { checkDefinitionReferences, hasOwnDefinitions, referenceVerdictInScope, type ReferenceScope } from './check-definition-references.js';
import { rememberResults } from '../internal/remember-results.js';

/** What the embedded schemas of one manifest share while they are checked. @internal */
export interface SchemaCheckContext {
  /** Where the schemas sit, which decides what their references mean. */
  scope: ReferenceScope;
}

/**
 * The issues of one embedded schema of a manifest: those of `checkEmbeddedSchema` followed by those of
 * `checkDefinitionReferences`, exactly. Nearly every schema has none, so one walk that builds no
 * pointers looks first; only a schema where it finds something (or a limit) is walked again by the
 * two checks, which name each finding with its pointer.
 * @internal
 */
export function checkSchemaInManifest(schema: unknown, pointer: string, context: SchemaCheckContext): ValidationIssue[] {
  if (isCleanSchema(schema, context)) return [];
  return [...checkEmbeddedSchema(schema, pointer), ...checkDefinitionReferences(schema, pointer, context.scope)];
}

const { maxDepth, maxNodes, maxPatternLength, maxUniqueItems } = DEFAULT_EMBEDDED_SCHEMA_LIMITS;

/**
 * True only when both checks would report nothing: every construct they refuse, the node and depth
 * limits of `checkEmbeddedSchema`, and the verdict of every reference outside data keywords are looked
 * at. (The reference walk's own limits can only make it read less, so they need no check here.) False
 * sends the schema to the checks themselves, so a false alarm costs time only.
 */
function isCleanSchema(schema: unknown, context: SchemaCheckContext): boolean {
  if (typeof schema !== 'object' || schema === null) return true;
  const walk = { context, ownDefinitions: hasOwnDefinitions(schema, context.scope), nodes: 0, plainPrototype: Object.keys(Object.prototype).length === 0 };
  return isCleanNode(schema, 0, false, undefined, walk);
}

/** What one {@link isCleanSchema} walk shares across its nodes. */
interface CleanWalk {
  context: SchemaCheckContext;
  /** Whether the schema's `#/definitions/…` references point into itself. */
  ownDefinitions: boolean;
  /** Nodes visited so far, against the node limit. */
  nodes: number;
  /** Whether `for…in` lists only its own members on an object whose prototype is `Object.prototype` (nothing made an inherited member enumerable). */
  plainPrototype: boolean;
}

/**
 * One node of {@link isCleanSchema}, depth first. A recursive walk: the depth limit bounds the
 * recursion, and it allocates nothing per node, which keeps it a small share of a big manifest's
 * validation. `data`: the node sits under a data keyword (`enum`, …), where the reference walk does not
 * go; `ownerKey`: the key it sits under, which tells data from a property named `default`.
 */
function isCleanNode(value: object, depth: number, data: boolean, ownerKey: string | undefined, walk: CleanWalk): boolean {
  if (++walk.nodes > maxNodes || depth > maxDepth) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const child: unknown = value[index];
      if (typeof child === 'object' && child !== null) {
        if (!isCleanNode(child, depth + 1, data, undefined, walk)) return false;
        // A hole (only in-process values have them) makes `checkEmbeddedSchema` throw: let it.
      } else if (child === undefined && !(index in value)) return false;
    }
    return true;
  }
  const record = value as Record<string, unknown>;
  // `for…in` reads each member through the object's enumeration cache, at a fraction of the cost of
  // `Object.keys` and a lookup per member. It lists inherited enumerable members too, which a parsed
  // document never has; any other object is left to the checks themselves.
  const prototype: unknown = Object.getPrototypeOf(record);
  if (prototype !== null && (prototype !== Object.prototype || !walk.plainPrototype)) return false;
  if (record['uniqueItems'] === true && hasUnboundedUniqueItems(record, maxUniqueItems)) return false;
  for (const key in record) {
    const child = record[key];
    if (key === '$data') return false;
    if (typeof child === 'object' && child !== null) {
      if (key === 'patternProperties' && !Array.isArray(child)) {
        for (const name of Object.keys(child)) if (!isSafePattern(name)) return false;
      }
      if (!isCleanNode(child, depth + 1, data || isDataMember(key, ownerKey), key, walk)) return false;
    } else if (typeof child !== 'string') {
      continue;
    } else if (key === '$ref') {
      if (!child.startsWith('#') || (!data && referenceVerdictInScope(child, walk.context.scope, walk.ownDefinitions) !== null)) return false;
    } else if (key === '$dynamicRef') {
      if (!child.startsWith('#')) return false;
    } else if (key === 'pattern' && !isSafePattern(child)) return false;
  }
  return true;
}

/**
 * Whether a `pattern` passes `checkEmbeddedSchema`. The verdict depends on the pattern alone and big
 * manifests repeat the same few, so it is kept for the process; a pattern over the length limit is
 * refused before it could be kept, which bounds what the memo holds.
 */
function isSafePattern(pattern: string): boolean {
  return pattern.length <= maxPatternLength && isSafeShortPattern(pattern);
}

const isSafeShortPattern = rememberResults((pattern) => patternProblem(pattern, maxPatternLength) === undefined, 1024);
