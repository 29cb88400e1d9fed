import { escapePointerToken, fromPointer } from '../internal/json-pointer.js';
import type { JsonSchema } from './manifest-v0.js';
import { isDataMember } from './reachable-definitions.js';

/** Keywords that only annotate: beside a `$ref` they add nothing a validator checks, so they can join the definition's own keywords. */
const ANNOTATIONS: ReadonlySet<string> = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

/** How the root `$defs` of one schema are used. */
interface DefinitionUses {
  /** Plain uses per key: `{ "$ref": "#/$defs/<key>" }`, with at most annotations the definition lacks beside it. */
  plain: Map<string, number>;
  /** Keys another use needs kept in place: a deeper pointer, a `$dynamicRef`, a `$ref` beside validating keywords. */
  pinned: Set<string>;
  /** The keys each definition refers to, by any use: the graph cycles are looked for in. */
  edges: Map<string, Set<string>>;
}

/**
 * Moves each root definition that the schema reaches through exactly one plain `$ref`, and that is
 * on no reference cycle, to the place of that reference, and drops it from `$defs`; the others stay.
 * The schema validates exactly the same values (annotations beside the `$ref` join the definition
 * when it has none of its own of that name; any other use keeps the definition hoisted), and a model
 * reads each definition once without the `$defs` entry and the pointer that named it: GitHub's
 * repository tools reach each of a dozen shared parameter definitions once. `properties` and
 * `definitions` are the fresh copies `argumentsSchema` built, changed in place; nested `$id`
 * resources are left alone, their `#…` references being their own.
 */
export function inlineSingleUseDefinitions(properties: Record<string, JsonSchema>, definitions: Record<string, JsonSchema>): void {
  const uses: DefinitionUses = { plain: new Map(), pinned: new Set(), edges: new Map() };
  for (const schema of Object.values(properties)) visitReferences(schema, (node, key) => noteUse(node, key, undefined, definitions, uses));
  for (const [owner, schema] of Object.entries(definitions)) visitReferences(schema, (node, key) => noteUse(node, key, owner, definitions, uses));
  const movable = new Set<string>();
  for (const [key, count] of uses.plain) if (count === 1 && !uses.pinned.has(key) && !isOnCycle(key, uses.edges)) movable.add(key);
  if (movable.size === 0) return;
  const place = (node: unknown): unknown => placeDefinitions(node, movable, definitions);
  for (const name of Object.keys(properties)) properties[name] = place(properties[name]) as JsonSchema;
  for (const key of Object.keys(definitions)) if (!movable.has(key)) definitions[key] = place(definitions[key]) as JsonSchema;
  for (const key of movable) delete definitions[key];
}

function noteUse(node: Record<string, unknown>, keyword: '$ref' | '$dynamicRef', owner: string | undefined, definitions: Record<string, JsonSchema>, uses: DefinitionUses): void {
  const target = referencedDefinition(node[keyword] as string, definitions);
  if (target === undefined) return;
  if (owner !== undefined) {
    let targets = uses.edges.get(owner);
    if (targets === undefined) uses.edges.set(owner, (targets = new Set()));
    targets.add(target.key);
  }
  if (keyword === '$ref' && target.whole && isPlainReference(node, definitions[target.key]!)) uses.plain.set(target.key, (uses.plain.get(target.key) ?? 0) + 1);
  else uses.pinned.add(target.key);
}

/** The root definition a reference points at, and whether it names the whole definition. Undefined for any other reference. */
function referencedDefinition(reference: string, definitions: Record<string, JsonSchema>): { key: string; whole: boolean } | undefined {
  let pointer = reference;
  // A URI fragment may percent-encode the pointer: `#/%24defs/A` is the same reference, and must count.
  if (pointer.includes('%')) {
    try {
      pointer = decodeURIComponent(pointer);
    } catch {
      return undefined;
    }
  }
  if (!pointer.startsWith('#/')) return undefined;
  const tokens = fromPointer(pointer.slice(1));
  const key = tokens[1];
  if (tokens[0] !== '$defs' || key === undefined || !Object.hasOwn(definitions, key)) return undefined;
  return { key, whole: tokens.length === 2 && reference === `#/$defs/${escapePointerToken(key)}` };
}

/** Whether a `$ref` object can become its definition: nothing beside the reference but annotations the definition does not have. */
function isPlainReference(node: Record<string, unknown>, definition: JsonSchema): boolean {
  for (const key of Object.keys(node)) {
    if (key === '$ref') continue;
    if (!ANNOTATIONS.has(key) || typeof definition !== 'object' || Object.hasOwn(definition, key)) return false;
  }
  return true;
}

/** Whether a definition reaches itself through references. */
function isOnCycle(start: string, edges: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  const seen = new Set<string>();
  const pending = [...(edges.get(start) ?? [])];
  while (pending.length > 0) {
    const key = pending.pop()!;
    if (key === start) return true;
    if (seen.has(key)) continue;
    seen.add(key);
    pending.push(...(edges.get(key) ?? []));
  }
  return false;
}

/** Calls `visit` with every object of a schema that holds a `$ref` or `$dynamicRef` string, skipping data keywords and nested `$id` resources. */
function visitReferences(value: unknown, visit: (node: Record<string, unknown>, keyword: '$ref' | '$dynamicRef') => void): void {
  const stack: Array<{ node: unknown; ownerKey: string | undefined }> = [{ node: value, ownerKey: undefined }];
  while (stack.length > 0) {
    const { node, ownerKey } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, ownerKey: undefined });
      continue;
    }
    const source = node as Record<string, unknown>;
    if (typeof source['$id'] === 'string') continue;
    for (const [key, child] of Object.entries(source)) {
      if ((key === '$ref' || key === '$dynamicRef') && typeof child === 'string') visit(source, key);
      else if (!isDataMember(key, ownerKey)) stack.push({ node: child, ownerKey: key });
    }
  }
}

/** The schema with each plain reference to a movable definition replaced by the definition (itself placed the same way). */
function placeDefinitions(value: unknown, movable: ReadonlySet<string>, definitions: Record<string, JsonSchema>, ownerKey?: string): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) value[index] = placeDefinitions(value[index], movable, definitions);
    return value;
  }
  const source = value as Record<string, unknown>;
  if (typeof source['$id'] === 'string') return value;
  const reference = source['$ref'];
  const target = typeof reference === 'string' ? referencedDefinition(reference, definitions) : undefined;
  if (target !== undefined && movable.has(target.key)) {
    const annotations = { ...source };
    delete annotations['$ref'];
    const definition = placeDefinitions(definitions[target.key], movable, definitions);
    return Object.keys(annotations).length === 0 ? definition : { ...(definition as Record<string, unknown>), ...annotations };
  }
  for (const [key, child] of Object.entries(source)) if (!isDataMember(key, ownerKey)) source[key] = placeDefinitions(child, movable, definitions, key);
  return value;
}
