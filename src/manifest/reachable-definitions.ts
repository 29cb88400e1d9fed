import { fromPointer } from '../internal/json-pointer.js';
import type { JsonSchema } from './manifest-v0.js';

/** The prefix of a reference to a shared definition at the manifest root (spec v0.2). */
export const DEFINITIONS_PREFIX = '#/definitions/';

/** Keywords whose values are data, not schemas: a `$ref` member inside them is just a string. @internal */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples', 'example']);

/** Keywords whose members are schemas named by the API (and a tool's `parameters`): a member there called `default` is a schema. @internal */
export const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions', 'parameters']);

/**
 * Whether the member `key` of an object holds data rather than schemas, where `ownerKey` is the key
 * the object itself sits under: `default` is data in a schema, but a property of that name in a
 * `properties` map is a schema whose references count. @internal
 */
export function isDataMember(key: string, ownerKey: string | number | undefined): boolean {
  return DATA_KEYWORDS.has(key) && !(typeof ownerKey === 'string' && SCHEMA_MAP_KEYWORDS.has(ownerKey));
}

/** A `#/definitions/<name>…` reference taken apart. */
export interface DefinitionReference {
  /** The definition's name (the first pointer token, unescaped). */
  name: string;
  /** The rest of the pointer after the name (`""`, or `/properties/x`), still escaped. */
  rest: string;
}

/**
 * Parses a `$ref` value that points at a shared definition (`#/definitions/<name>` with an optional
 * deeper pointer). Undefined for any other reference.
 */
export function parseDefinitionReference(reference: string): DefinitionReference | undefined {
  if (!reference.startsWith(DEFINITIONS_PREFIX)) return undefined;
  // Nearly every reference is a bare name (no deeper pointer, no escape, no percent-encoding), which
  // decoding and splitting would give back unchanged: validation parses each one of a big manifest.
  const bare = reference.slice(DEFINITIONS_PREFIX.length);
  if (!bare.includes('/') && !bare.includes('~') && !bare.includes('%')) return bare === '' ? undefined : { name: bare, rest: '' };
  let pointer = reference.slice(1);
  try {
    // A URI fragment may percent-encode the pointer; names of the spec's alphabet never need it.
    pointer = decodeURIComponent(pointer);
  } catch {
    // keep the raw text: the lookup then simply fails and is reported as unknown
  }
  const name = fromPointer(pointer)[1];
  if (name === undefined || name === '') return undefined;
  const slash = pointer.indexOf('/', DEFINITIONS_PREFIX.length - 1);
  return { name, rest: slash === -1 ? '' : pointer.slice(slash) };
}

// Far more nodes than a 8 MiB manifest holds: only an in-process object with a cycle gets there.
const MAX_NODES = 5_000_000;

/**
 * Calls `visit` with every `$ref` string of a schema-like value (a schema, or an entry with its
 * `parameters`; data keywords skipped, see {@link isDataMember}), without recursion.
 */
export function forEachReference(value: unknown, visit: (reference: string) => void): void {
  const stack: Array<{ node: unknown; ownerKey: string | undefined }> = [{ node: value, ownerKey: undefined }];
  let nodes = 0;
  while (stack.length > 0 && nodes++ < MAX_NODES) {
    const { node, ownerKey } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) if (typeof item === 'object' && item !== null) stack.push({ node: item, ownerKey: undefined });
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && typeof child === 'string') visit(child);
      else if (typeof child === 'object' && child !== null && !isDataMember(key, ownerKey)) stack.push({ node: child, ownerKey: key });
    }
  }
}

/** Finds what a value reaches among one manifest's definitions; see {@link createDefinitionGraph}. */
export interface DefinitionGraph {
  /** Names of the definitions `value` reaches, directly or through other definitions, sorted. Unknown names are left out. */
  reachableFrom(value: unknown): string[];
}

/**
 * Indexes a manifest's `definitions` so that what many tools reach is computed without walking a
 * shared definition again for each of them. Cycles (recursive schemas) end where a name repeats.
 * Build one per manifest and do not change the definitions while using it.
 */
export function createDefinitionGraph(definitions: Readonly<Record<string, JsonSchema>> | undefined): DefinitionGraph {
  const direct = new Map<string, string[]>();
  const referencesOf = (value: unknown): string[] => {
    const names = new Set<string>();
    forEachReference(value, (reference) => {
      const parsed = parseDefinitionReference(reference);
      if (parsed && definitions !== undefined && Object.hasOwn(definitions, parsed.name)) names.add(parsed.name);
    });
    return [...names];
  };
  const directOf = (name: string): string[] => {
    let names = direct.get(name);
    if (names === undefined) {
      names = referencesOf(definitions?.[name]);
      direct.set(name, names);
    }
    return names;
  };
  return {
    reachableFrom(value) {
      if (definitions === undefined) return [];
      const reached = new Set<string>();
      const queue = referencesOf(value);
      while (queue.length > 0) {
        const name = queue.pop()!;
        if (reached.has(name)) continue;
        reached.add(name);
        for (const next of directOf(name)) if (!reached.has(next)) queue.push(next);
      }
      return [...reached].sort();
    },
  };
}

/**
 * Names of the shared definitions a value (a tool, resource, prompt or schema) reaches through
 * `#/definitions/<name>` references, transitively, sorted. A tool's digest and `diffManifests` use it:
 * a changed definition changes every tool that reaches it.
 */
export function reachableDefinitions(value: unknown, definitions: Readonly<Record<string, JsonSchema>> | undefined): string[] {
  return createDefinitionGraph(definitions).reachableFrom(value);
}
