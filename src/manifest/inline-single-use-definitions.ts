import { escapePointerToken, fromPointer } from '../internal/json-pointer.js';
import type { JsonSchema } from './manifest-v0.js';
import { isDataMember } from './reachable-definitions.js';

/** Keywords that only annotate: beside a `$ref` they add nothing a validator checks, so they can join the definition's own keywords. */
const ANNOTATIONS: ReadonlySet<string> = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

/** Where a plain reference sits: the object or array holding it, under which member, in which definition (none: a parameter). */
interface UseSite {
  holder: Record<string, unknown> | unknown[];
  slot: string | number;
  /** The `$ref` object itself. */
  node: Record<string, unknown>;
  owner: string | undefined;
}

/** How the root `$defs` of one schema are used. */
interface DefinitionUses {
  /** Plain uses per key: `{ "$ref": "#/$defs/<key>" }`, with at most annotations the definition lacks beside it. */
  plain: Map<string, UseSite[]>;
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
  // Most tools reach no definition at all: nothing to walk.
  if (Object.keys(definitions).length === 0) return;
  const uses: DefinitionUses = { plain: new Map(), pinned: new Set(), edges: new Map() };
  visitReferences(properties, undefined, definitions, uses);
  for (const key of Object.keys(definitions)) visitReferences(definitions, key, definitions, uses);
  const movable = new Map<string, UseSite>();
  for (const [key, sites] of uses.plain) if (sites.length === 1 && !uses.pinned.has(key) && !isOnCycle(key, uses.edges)) movable.set(key, sites[0]!);
  for (const key of deepestFirst(movable)) {
    const { holder, slot, node } = movable.get(key)!;
    const definition = definitions[key];
    const annotations = Object.keys(node).length > 1 ? { ...node } : undefined;
    if (annotations !== undefined) delete annotations['$ref'];
    (holder as Record<string | number, unknown>)[slot] = annotations === undefined ? definition : { ...(definition as Record<string, unknown>), ...annotations };
    delete definitions[key];
  }
}

/**
 * The movable definitions, each after every one whose reference sits inside it: so a definition takes
 * its final form before it moves. Their owners form a forest (no definition on a cycle moves).
 */
function deepestFirst(movable: ReadonlyMap<string, UseSite>): string[] {
  const depths = new Map<string, number>();
  for (const key of movable.keys()) {
    const chain: string[] = [];
    let current: string | undefined = key;
    while (current !== undefined && movable.has(current) && !depths.has(current)) {
      chain.push(current);
      current = movable.get(current)!.owner;
    }
    let depth = current !== undefined && depths.has(current) ? depths.get(current)! + 1 : 0;
    for (let index = chain.length - 1; index >= 0; index--) depths.set(chain[index]!, depth++);
  }
  return [...depths.keys()].sort((a, b) => depths.get(b)! - depths.get(a)!);
}

function noteUse(site: UseSite, keyword: '$ref' | '$dynamicRef', definitions: Record<string, JsonSchema>, uses: DefinitionUses): void {
  const target = referencedDefinition(site.node[keyword] as string, definitions);
  if (target === undefined) return;
  if (site.owner !== undefined) {
    let targets = uses.edges.get(site.owner);
    if (targets === undefined) uses.edges.set(site.owner, (targets = new Set()));
    targets.add(target.key);
  }
  if (keyword === '$ref' && target.whole && isPlainReference(site.node, definitions[target.key]!)) {
    const sites = uses.plain.get(target.key);
    if (sites === undefined) uses.plain.set(target.key, [site]);
    else sites.push(site);
  } else uses.pinned.add(target.key);
}

const PREFIX = '#/$defs/';

/** The root definition a reference points at, and whether it names the whole definition. Undefined for any other reference. */
function referencedDefinition(reference: string, definitions: Record<string, JsonSchema>): { key: string; whole: boolean } | undefined {
  // Nearly every reference is `#/$defs/<name>` with nothing to unescape: no need to parse it.
  if (reference.startsWith(PREFIX)) {
    const name = reference.slice(PREFIX.length);
    if (!name.includes('/') && !name.includes('~') && !name.includes('%')) return Object.hasOwn(definitions, name) ? { key: name, whole: true } : undefined;
  }
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
  return { key, whole: tokens.length === 2 && reference === `${PREFIX}${escapePointerToken(key)}` };
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

/**
 * Notes every `$ref` and `$dynamicRef` of the schema `holder[owner]` (of every member of `holder`, the
 * parameters, when `owner` is undefined), with where it sits; data keywords and nested `$id` resources are skipped.
 */
function visitReferences(holder: Record<string, unknown>, owner: string | undefined, definitions: Record<string, JsonSchema>, uses: DefinitionUses): void {
  type Entry = { holder: Record<string, unknown> | unknown[]; slot: string | number; ownerKey: string | undefined };
  const stack: Entry[] = owner === undefined ? Object.keys(holder).map((slot) => ({ holder, slot, ownerKey: undefined })) : [{ holder, slot: owner, ownerKey: undefined }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const node = (entry.holder as Record<string | number, unknown>)[entry.slot];
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) stack.push({ holder: node, slot: index, ownerKey: undefined });
      continue;
    }
    const source = node as Record<string, unknown>;
    if (typeof source['$id'] === 'string') continue;
    for (const key in source) {
      const child = source[key];
      if ((key === '$ref' || key === '$dynamicRef') && typeof child === 'string') noteUse({ holder: entry.holder, slot: entry.slot, node: source, owner }, key, definitions, uses);
      else if (typeof child === 'object' && child !== null && !isDataMember(key, entry.ownerKey)) stack.push({ holder: source, slot: key, ownerKey: key });
    }
  }
}
