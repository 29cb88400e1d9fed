import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromPointer, toPointer } from '../internal/json-pointer.js';
import { loadPayments } from '../../test/fixtures/manifests/load-fixture.js';
import { parseManifest } from './parse-manifest.js';
import { validateManifest, type ValidationResult } from './validate-manifest.js';

// RFC 6901: empty, or "/"-separated tokens where "~" only appears as "~0" or "~1".
const POINTER_SYNTAX = /^(?:\/(?:[^~/]|~[01])*)*$/;

function resolve(document: unknown, pointer: string): { found: boolean; value?: unknown } {
  let current = document;
  for (const token of fromPointer(pointer)) {
    if (typeof current !== 'object' || current === null) return { found: false };
    if (Array.isArray(current) ? !/^(?:0|[1-9][0-9]*)$/.test(token) || Number(token) >= current.length : !Object.prototype.hasOwnProperty.call(current, token)) {
      return { found: false };
    }
    current = (current as Record<string, unknown>)[token];
  }
  return { found: true, value: current };
}

function parentOf(pointer: string): string {
  return toPointer(fromPointer(pointer).slice(0, -1));
}

/** Every pointer is well-formed; it resolves in the document, or (for a missing member or a parse failure) its parent does. */
function expectPointersResolve(result: ValidationResult, document: unknown): void {
  expect(typeof result.valid).toBe('boolean');
  expect(result.valid).toBe(!result.issues.some((issue) => issue.severity === 'error'));
  for (const issue of result.issues) {
    expect(issue.pointer).toMatch(POINTER_SYNTAX);
    expect(['error', 'warning']).toContain(issue.severity);
    expect(issue.code).toMatch(/^[a-z_]+\.[a-z_A-Z]+$/);
    const missingMember = issue.code === 'schema.required' || issue.code.startsWith('json.');
    const target = missingMember && !resolve(document, issue.pointer).found ? parentOf(issue.pointer) : issue.pointer;
    expect(resolve(document, target).found, `${issue.code} at ${issue.pointer}`).toBe(true);
  }
}

interface Node {
  pointer: string;
  value: unknown;
}

function nodesOf(value: unknown, pointer = ''): Node[] {
  const nodes: Node[] = [{ pointer, value }];
  if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) nodes.push(...nodesOf(child, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`));
  }
  return nodes;
}

const paymentsPointers = nodesOf(loadPayments())
  .map((node) => node.pointer)
  .filter((pointer) => pointer !== '');

/** A deep copy of Payments with a few members replaced, deleted or added, anywhere in the tree. */
const mutatedPayments = fc
  .array(
    fc.record({
      at: fc.constantFrom(...paymentsPointers),
      operation: fc.constantFrom('replace', 'delete', 'add'),
      key: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('id', 'path', 'in', 'x-a', '$ref', 'pattern', 'parameters', 'temporal_behavior')),
      value: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom('{job_id}', '/a/{b}', '^(a|a)*$', 'http://10.0.0.1', 'close_account', '2.0.0', -1, 1e308)),
    }),
    { minLength: 1, maxLength: 4 },
  )
  .map((mutations) => {
    const manifest = loadPayments() as Record<string, unknown>;
    for (const { at, operation, key, value } of mutations) {
      const tokens = fromPointer(at);
      const last = tokens.pop();
      const parent = resolve(manifest, toPointer(tokens));
      if (!parent.found || typeof parent.value !== 'object' || parent.value === null || last === undefined) continue;
      const container = parent.value as Record<string, unknown>;
      if (operation === 'replace') container[last] = value;
      else if (operation === 'delete') {
        if (Array.isArray(container)) container.splice(Number(last), 1);
        else delete container[last];
      } else {
        const target = container[last];
        if (Array.isArray(target)) target.push(value);
        else if (typeof target === 'object' && target !== null) (target as Record<string, unknown>)[key] = value;
      }
    }
    return manifest;
  });

describe('parseManifest and validateManifest never throw', () => {
  it('on arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.json()), (text) => {
        const result = parseManifest(text);
        let document: unknown;
        try {
          // The parser strips one leading byte-order mark (spec section 2); JSON.parse does not.
          document = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
        } catch {
          // Not JSON at all: the only issue is the parse failure, at a well-formed pointer.
          expect(result.issues).toHaveLength(1);
          expect(result.issues[0]?.pointer).toMatch(POINTER_SYNTAX);
          return;
        }
        expectPointersResolve(result, document);
      }),
      { numRuns: 300 },
    );
  });

  it('on text with a leading byte-order mark, which is ignored', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(parseManifest(`\uFEFF${text}`)).toEqual(parseManifest(text));
      }),
      { numRuns: 100 },
    );
  });

  it('on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const result = parseManifest(bytes);
        expect(result.issues.length).toBeGreaterThan(0);
        for (const issue of result.issues) expect(issue.pointer).toMatch(POINTER_SYNTAX);
      }),
      { numRuns: 300 },
    );
  });

  it('on arbitrary JSON values, with every pointer resolving in the value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expectPointersResolve(validateManifest(value), value);
        const text = JSON.stringify(value);
        expectPointersResolve(parseManifest(text), JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('on arbitrary JavaScript values (undefined, symbols, null-prototype objects, boxed values)', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBoxedValues: true, withMap: true, withSet: true, withSparseArray: true }), (value) => {
        const result = validateManifest(value);
        for (const issue of result.issues) expect(issue.pointer).toMatch(POINTER_SYNTAX);
      }),
      { numRuns: 300 },
    );
  });

  it('on mutated Payments manifests, with every pointer resolving in the document', () => {
    fc.assert(
      fc.property(mutatedPayments, (manifest) => {
        expectPointersResolve(validateManifest(manifest), manifest);
        const text = JSON.stringify(manifest);
        expectPointersResolve(parseManifest(text), JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('on manifests whose record keys need pointer escaping', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 6 }).map((key) => `${key}/~${key}`),
        (key) => {
          const manifest = loadPayments();
          manifest.tools[0] = { ...manifest.tools[0], parameters: { [key]: { type: 'string', in: 'path' } }, errors: { [key]: { status: 200 } } };
          manifest['auth'] = { type: 'bearer', scopes: { [key]: ['missing_tool'] } };
          const result = validateManifest(manifest);
          expect(result.valid).toBe(false);
          expectPointersResolve(result, manifest);
        },
      ),
      { numRuns: 100 },
    );
  });
});
