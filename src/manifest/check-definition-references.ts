import { escapePointerToken, fromPointer } from '../internal/json-pointer.js';
import type { JsonSchema } from './manifest-v0.js';
import { isDataMember, parseDefinitionReference } from './reachable-definitions.js';
import type { ValidationIssue } from '../errors/validation-issue.js';
import { isRecord } from '../internal/is-record.js';

// Keywords whose subschemas apply to the same instance: a cycle through only these never ends.
// Arrays read by index: a fresh process runs this walk interpreted, where a Set's iterator costs a call per keyword and node.
const SAME_INSTANCE_LIST = ['allOf', 'anyOf', 'oneOf'] as const;
const SAME_INSTANCE_SINGLE = ['not', 'if', 'then', 'else'] as const;
// The walks stop where `checkEmbeddedSchema` reports a schema as too deep or too large, so a value
// that is not a tree (an in-process object with a cycle) cannot make them loop.
const MAX_DEPTH = 33;
const MAX_NODES = 10_001;

/** Where an embedded schema sits, which decides what its `#/definitions/…` references mean. */
export interface ReferenceScope {
  /** The manifest's root `definitions` (spec v0.2); undefined when it has none. */
  definitions: Readonly<Record<string, JsonSchema>> | undefined;
  /** True for a schema under the root `definitions`: its only local references are `#/definitions/<name>`. */
  insideDefinition: boolean;
}
// A scope's verdicts are memoised: build one per manifest and do not change its definitions while using it.

/**
 * Checks that every `#/definitions/<name>` reference of an embedded schema names a root definition
 * (and, with a deeper pointer, a location inside it). A parameter or returns schema that declares its
 * own `definitions` keeps the v0.1 meaning: its `#/definitions/…` references point into itself. Inside a
 * root definition any other local reference (`#`, `#/$defs/…`) would point at the manifest itself, so
 * it is refused. Remote references are the business of `checkEmbeddedSchema`.
 */
export function checkDefinitionReferences(schema: unknown, basePointer: string, scope: ReferenceScope): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const ownDefinitions = hasOwnDefinitions(schema, scope);
  const stack: Array<{ value: unknown; pointer: string; depth: number; ownerKey?: string }> = [{ value: schema, pointer: basePointer, depth: 0 }];
  let nodes = 0;
  while (stack.length > 0 && nodes++ < MAX_NODES) {
    const { value, pointer, depth, ownerKey } = stack.pop()!;
    if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) continue;
    if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push({ value: item, pointer: `${pointer}/${index}`, depth: depth + 1 }));
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      // Pointers are built only for a reference or a subschema: most members are scalars.
      if (key === '$ref' && typeof child === 'string') {
        const issue = checkReference(child, `${pointer}/${escapePointerToken(key)}`, scope, ownDefinitions);
        if (issue) issues.push(issue);
      } else if (typeof child === 'object' && child !== null && !isDataMember(key, ownerKey))
        stack.push({ value: child, pointer: `${pointer}/${escapePointerToken(key)}`, depth: depth + 1, ownerKey: key });
    }
  }
  return issues;
}

/** Whether a schema's `#/definitions/…` references point into the schema itself (v0.1) rather than at the manifest's. @internal */
export function hasOwnDefinitions(schema: unknown, scope: ReferenceScope): boolean {
  return !scope.insideDefinition && isRecord(schema) && isRecord(schema['definitions']);
}

type ReferenceVerdict = Omit<ValidationIssue, 'pointer'> | null;

// What a reference string means depends only on the scope and on whether the schema has its own
// definitions: big manifests repeat the same few thousand references tens of thousands of times.
// Per scope: the verdicts for schemas without and with their own definitions.
const verdictsByScope = new WeakMap<ReferenceScope, [Map<string, ReferenceVerdict>, Map<string, ReferenceVerdict>]>();

/** What `checkDefinitionReferences` reports for one reference string (null: nothing), memoised per scope. @internal */
export function referenceVerdictInScope(reference: string, scope: ReferenceScope, ownDefinitions: boolean): ReferenceVerdict {
  let verdicts = verdictsByScope.get(scope);
  if (verdicts === undefined) {
    verdicts = [new Map(), new Map()];
    verdictsByScope.set(scope, verdicts);
  }
  const memo = verdicts[ownDefinitions ? 1 : 0];
  let verdict = memo.get(reference);
  if (verdict === undefined) {
    verdict = referenceVerdict(reference, scope, ownDefinitions);
    memo.set(reference, verdict);
  }
  return verdict;
}

function checkReference(reference: string, pointer: string, scope: ReferenceScope, ownDefinitions: boolean): ValidationIssue | undefined {
  const verdict = referenceVerdictInScope(reference, scope, ownDefinitions);
  return verdict === null ? undefined : { pointer, ...verdict };
}

function referenceVerdict(reference: string, scope: ReferenceScope, ownDefinitions: boolean): ReferenceVerdict {
  if (!reference.startsWith('#')) return null;
  const parsed = parseDefinitionReference(reference);
  if (parsed === undefined) {
    if (!scope.insideDefinition) return null;
    return {
      code: 'schema.unresolved_ref',
      message: `"$ref": ${quote(reference)} inside a shared definition would point at the manifest itself; refer to another definition as "#/definitions/<name>"`,
      severity: 'error',
    };
  }
  if (ownDefinitions) return null;
  const target = scope.definitions !== undefined && Object.hasOwn(scope.definitions, parsed.name) ? scope.definitions[parsed.name] : undefined;
  if (target === undefined) {
    return { code: 'schema.unknown_definition', message: `"$ref": ${quote(reference)} names definition ${quote(parsed.name)}, which the manifest's "definitions" does not have`, severity: 'error' };
  }
  let value: unknown = target;
  for (const token of fromPointer(parsed.rest)) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, token)) {
      return { code: 'schema.unresolved_ref', message: `"$ref": ${quote(reference)} points inside definition ${quote(parsed.name)} at ${quote(parsed.rest)}, which does not exist`, severity: 'error' };
    }
    value = (value as Record<string, unknown>)[token];
  }
  return null;
}

/**
 * Finds definitions that reach themselves without descending into a property or an item (only
 * through `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`): validating any value
 * against one would never end. Recursion through `properties`, `items` and the like is fine.
 */
export function checkDefinitionCycles(definitions: Readonly<Record<string, JsonSchema>>): ValidationIssue[] {
  const edges = new Map<string, string[]>();
  for (const [name, schema] of Object.entries(definitions)) edges.set(name, sameInstanceReferences(schema, definitions));
  const issues: ValidationIssue[] = [];
  // Iterative depth-first search with colours: 1 = on the current path, 2 = done.
  const colour = new Map<string, 1 | 2>();
  for (const start of edges.keys()) {
    if (colour.has(start)) continue;
    const path: Array<{ name: string; next: number }> = [{ name: start, next: 0 }];
    colour.set(start, 1);
    while (path.length > 0) {
      const frame = path.at(-1)!;
      const targets = edges.get(frame.name) ?? [];
      if (frame.next >= targets.length) {
        colour.set(frame.name, 2);
        path.pop();
        continue;
      }
      const target = targets[frame.next++]!;
      const state = colour.get(target);
      if (state === 1) {
        const cycle = [...path.slice(path.findIndex((entry) => entry.name === target)).map((entry) => entry.name), target];
        issues.push({
          pointer: `/definitions/${escapePointerToken(target)}`,
          code: 'schema.ref_cycle',
          message: `refers to itself through ${cycle.map(quote).join(' → ')} without descending into a property or item, so validating any value would never end`,
          severity: 'error',
        });
      } else if (state === undefined) {
        colour.set(target, 1);
        path.push({ name: target, next: 0 });
      }
    }
  }
  return issues;
}

function sameInstanceReferences(schema: unknown, definitions: Readonly<Record<string, JsonSchema>>): string[] {
  const names = new Set<string>();
  const stack: unknown[] = [schema];
  let nodes = 0;
  while (stack.length > 0 && nodes++ < MAX_NODES) {
    const node = stack.pop();
    if (!isRecord(node)) continue;
    const reference = node['$ref'];
    if (typeof reference === 'string') {
      const parsed = parseDefinitionReference(reference);
      // Only a reference to the whole definition applies it to the same instance as a whole.
      if (parsed && parsed.rest === '' && Object.hasOwn(definitions, parsed.name)) names.add(parsed.name);
    }
    for (let index = 0; index < SAME_INSTANCE_LIST.length; index++) {
      const list = node[SAME_INSTANCE_LIST[index]!];
      if (Array.isArray(list)) stack.push(...list);
    }
    for (let index = 0; index < SAME_INSTANCE_SINGLE.length; index++) {
      const child = node[SAME_INSTANCE_SINGLE[index]!];
      if (child !== undefined) stack.push(child);
    }
  }
  return [...names];
}

function quote(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}
