import type { ValidationIssue } from '../errors/validation-issue.js';
import { checkEmbeddedSchema, DEFAULT_EMBEDDED_SCHEMA_LIMITS, hasUnboundedUniqueItems, patternProblem } from './check-embedded-schema.js';
import { isDataMember } from './reachable-definitions.js';
import { checkDefinitionReferences, hasOwnDefinitions, referenceVerdictInScope, type ReferenceScope } from './check-definition-references.js';

/** What the embedded schemas of one manifest share while they are checked. @internal */
export interface SchemaCheckContext {
  /** Where the schemas sit, which decides what their references mean. */
  scope: ReferenceScope;
  /** Whether each `pattern` seen so far is safe: big manifests repeat the same few patterns. */
  safePatterns: Map<string, boolean>;
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
  const { scope } = context;
  const ownDefinitions = hasOwnDefinitions(schema, scope);
  const isSafePattern = (pattern: string): boolean => {
    let safe = context.safePatterns.get(pattern);
    if (safe === undefined) {
      safe = patternProblem(pattern, maxPatternLength) === undefined;
      context.safePatterns.set(pattern, safe);
    }
    return safe;
  };
  // Four parallel stacks: the node, its depth, whether it sits under a data keyword (`enum`, …),
  // where the reference walk does not go, and the key it sits under (which tells data from a property named `default`).
  const values: object[] = [schema];
  const depths: number[] = [0];
  const inData: boolean[] = [false];
  const ownerKeys: Array<string | undefined> = [undefined];
  let nodes = 0;
  while (values.length > 0) {
    const value = values.pop()!;
    const depth = depths.pop()!;
    const data = inData.pop()!;
    const ownerKey = ownerKeys.pop();
    if (++nodes > maxNodes || depth > maxDepth) return false;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const child: unknown = value[index];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
          inData.push(data);
          ownerKeys.push(undefined);
          // A hole (only in-process values have them) makes `checkEmbeddedSchema` throw: let it.
        } else if (child === undefined && !(index in value)) return false;
      }
      continue;
    }
    const record = value as Record<string, unknown>;
    if ('uniqueItems' in record && hasUnboundedUniqueItems(record, maxUniqueItems)) return false;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (key === '$data') return false;
      if (typeof child === 'object' && child !== null) {
        if (key === 'patternProperties' && !Array.isArray(child)) {
          for (const name of Object.keys(child)) if (!isSafePattern(name)) return false;
        }
        values.push(child);
        depths.push(depth + 1);
        inData.push(data || isDataMember(key, ownerKey));
        ownerKeys.push(key);
      } else if (typeof child !== 'string') {
        continue;
      } else if (key === '$ref') {
        if (!child.startsWith('#') || (!data && referenceVerdictInScope(child, scope, ownDefinitions) !== null)) return false;
      } else if (key === '$dynamicRef') {
        if (!child.startsWith('#')) return false;
      } else if (key === 'pattern' && !isSafePattern(child)) return false;
    }
  }
  return true;
}
