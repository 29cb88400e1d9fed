import { fromPointer } from '../internal/json-pointer.js';
import type { JsonSchema } from './manifest-v0.js';

/** The prefix of a reference to a shared definition at the manifest root (spec v0.2). */
export const DEFINITIONS_PREFIX = '#/definitions/';

/** Keywords whose values are data, not schemas: a `$ref` member inside them is just a string. @internal */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples', 'example']);

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

/** Calls `visit` with every `$ref` string of a schema-like value (data keywords skipped), without recursion. */
export function forEachReference(value: unknown, visit: (reference: string) => void): void {
  const stack: unknown[] = [value];
  let nodes = 0;
  while (stack.length > 0 && nodes++ < MAX_NODES) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && typeof child === 'string') visit(child);
      else if (typeof child === 'object' && child !== null && !DATA_KEYWORDS.has(key)) stack.push(child);
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
