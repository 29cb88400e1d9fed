// The layers of src/, enforced over the real import graph (docs/architecture.md draws them): each
// folder may import only the folders listed for it, so dependencies point down and no folder cycle can
// form. Type-only imports count too: a type that crosses a layer still couples the two.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SOURCE = fileURLToPath(new URL('../../src/', import.meta.url));

/** Folder → the folders it may import (itself always allowed). `.` is the root entry (src/index.ts). */
const ALLOWED: Record<string, readonly string[]> = {
  internal: [],
  errors: ['internal'],
  manifest: ['errors', 'internal'],
  '.': ['manifest', 'errors', 'internal'],
  tools: ['.', 'manifest', 'errors', 'internal'],
  openapi: ['.', 'manifest', 'errors', 'internal'],
  server: ['.', 'manifest', 'errors', 'internal'],
  express: ['server', '.', 'manifest', 'errors', 'internal'],
  fastify: ['server', '.', 'manifest', 'errors', 'internal'],
  hono: ['server', '.', 'manifest', 'errors', 'internal'],
  client: ['tools', '.', 'manifest', 'errors', 'internal'],
  redis: ['client', 'server', '.', 'manifest', 'errors', 'internal'],
  node: ['client', 'errors', 'internal'],
  mcp: ['client', 'tools', 'server', '.', 'manifest', 'errors', 'internal'],
  'ai-sdk': ['client', 'tools', '.', 'manifest', 'errors', 'internal'],
  'openai-agents': ['client', 'tools', '.', 'manifest', 'errors', 'internal'],
  langchain: ['client', 'tools', '.', 'manifest', 'errors', 'internal'],
  inspector: ['client', 'tools', '.', 'manifest', 'errors', 'internal'],
  cli: ['inspector', 'mcp', 'openapi', 'client', 'tools', 'server', 'redis', 'node', '.', 'manifest', 'errors', 'internal'],
};

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !/\.test(-d)?\.ts$/.test(name) && !path.includes(`${join('/', 'test-helpers', '/')}`) ? [path] : [];
  });
}

function folderOf(file: string): string {
  const [first, ...rest] = relative(SOURCE, file).split('/');
  return rest.length === 0 ? '.' : first!;
}

/** Every relative import of every source file: [importing folder, imported folder, file, specifier]. */
function edges(): [string, string, string, string][] {
  const found: [string, string, string, string][] = [];
  const pattern = /(?:^|\s)(?:import|export)\s[^'"]*?from\s+'(\.{1,2}\/[^']+)'|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;
  for (const file of sourceFiles(SOURCE)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(pattern)) {
      const specifier = match[1] ?? match[2]!;
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(SOURCE)) continue;
      found.push([folderOf(file), folderOf(target), relative(SOURCE, file), specifier]);
    }
  }
  return found;
}

describe('layers of src/', () => {
  const graph = edges();

  it('knows every folder of src/', () => {
    const folders = new Set(sourceFiles(SOURCE).map(folderOf));
    expect([...folders].filter((folder) => !(folder in ALLOWED))).toEqual([]);
  });

  it('has only downward imports (each folder imports only the folders its layer allows)', () => {
    const violations = graph.filter(([from, to]) => from !== to && !(ALLOWED[from] ?? []).includes(to)).map(([from, to, file, specifier]) => `${file} (${from}) imports ${specifier} (${to})`);
    expect(violations).toEqual([]);
  });

  it('has no folder cycles', () => {
    const next = new Map<string, Set<string>>();
    for (const [from, to] of graph) if (from !== to) next.set(from, (next.get(from) ?? new Set()).add(to));
    const cycles = new Set<string>();
    const visit = (folder: string, path: string[]): void => {
      for (const to of next.get(folder) ?? []) {
        if (path.includes(to)) cycles.add([...path.slice(path.indexOf(to)), to].join(' → '));
        else if (path.length < 20) visit(to, [...path, to]);
      }
    };
    for (const folder of next.keys()) visit(folder, [folder]);
    expect([...cycles]).toEqual([]);
  });

  it('reaches into client/ only through its index.ts or its named seams (seam.ts, call-seam.ts, node-seam.ts)', () => {
    const open = new Set(['client/index.ts', 'client/seam.ts', 'client/call-seam.ts', 'client/node-seam.ts']);
    const violations = graph
      .filter(([from, to]) => from !== 'client' && to === 'client')
      .filter(([, , file, specifier]) => !open.has(relative(SOURCE, resolve(dirname(join(SOURCE, file)), specifier)).replace(/\.js$/, '.ts')))
      .map(([, , file, specifier]) => `${file} imports ${specifier}`);
    expect(violations).toEqual([]);
  });

  it('knows every sub-folder of client/ and gives it a floor', () => {
    const folders = new Set(
      sourceFiles(join(SOURCE, 'client'))
        .map(clientRoomOf)
        .filter((room) => room !== ROOT_FLOOR),
    );
    expect([...folders].filter((folder) => floorOf(folder) === undefined)).toEqual([]);
  });

  it('has client/ in floors: each sub-folder imports only sub-folders on floors below it (auth above oauth, shapes at the bottom)', () => {
    const violations = clientEdges(graph)
      .filter(([from, to]) => from !== ROOT_FLOOR && from !== to && !(to !== ROOT_FLOOR && floorOf(to)! > floorOf(from)!))
      .map(([from, to, file, specifier]) => `${file} (${from}) imports ${specifier} (${to})`);
    expect(violations).toEqual([]);
  });
});

/**
 * The floors of client/, top to bottom (docs/architecture.md draws them). The root files (`index.ts`,
 * `create-client.ts`, the context and options: the wiring) may import any floor; a sub-folder imports
 * only floors below its own, never a root file: a stage declares the slice of shared state it needs
 * (`trust/trust-context.ts`), and shared shapes and store interfaces sit at the bottom (`shapes/`).
 */
const CLIENT_FLOORS: readonly (readonly string[])[] = [
  ['check', 'jobs', 'liveness'], // features over the flows: the live chain check, async jobs, revalidation and health
  ['discover'], // find → fetch with cache → read → register
  ['call'], // prepare → build → send with retries → envelope → pages
  ['auth'], // credentials on a request: bearer, API key, client credentials, a user's tokens
  ['oauth', 'trust'], // user flows and authorization-server metadata / origin binding, pins, findings, scan policy
  ['policy', 'cache'], // approval, budgets, redaction / RFC 9111 cache
  ['fetch'], // the guarded transport
  ['ssrf'], // address policy
  ['errors'], // the client's error classes
  ['shapes'], // client-types, store interfaces: shapes only
];

const ROOT_FLOOR = '(root)';

function floorOf(folder: string): number | undefined {
  const index = CLIENT_FLOORS.findIndex((floor) => floor.includes(folder));
  return index === -1 ? undefined : index;
}

/** The sub-folder of client/ a file is in, or `(root)` for the files at its root. */
function clientRoomOf(file: string): string {
  const parts = relative(join(SOURCE, 'client'), file).split('/');
  return parts.length === 1 ? ROOT_FLOOR : parts[0]!;
}

/** The imports between files of client/: [importing room, imported room, file, specifier]. */
function clientEdges(graph: [string, string, string, string][]): [string, string, string, string][] {
  return graph
    .filter(([from, to]) => from === 'client' && to === 'client')
    .map(([, , file, specifier]) => [clientRoomOf(join(SOURCE, file)), clientRoomOf(resolve(dirname(join(SOURCE, file)), specifier)), file, specifier]);
}
