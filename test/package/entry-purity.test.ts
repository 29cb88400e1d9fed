/**
 * Entry purity: what importing an entry point loads, read from the static import graph of the built
 * files (`dist/`, built by `npm test` before vitest runs). Relative imports are followed; bare and
 * `node:` specifiers are collected and checked against the entry's forbidden list.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(new URL('../..', import.meta.url).pathname);

/** What no framework-free entry may load: frameworks, the file system, YAML, the OpenAPI tool chain, the MCP SDK. */
const FRAMEWORK_FREE: readonly string[] = [
  'express',
  'fastify',
  'fastify-plugin',
  'hono',
  '@hono/node-server',
  'node:fs',
  'node:fs/promises',
  'fs',
  'fs/promises',
  'yaml',
  'js-yaml',
  '@readme/openapi-parser',
  'swagger2openapi',
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/server',
  'ai',
  '@openai/agents',
  '@langchain/core',
];

interface EntryRow {
  /** The package specifier users import. */
  entry: string;
  /** Its built file, relative to the package root. */
  file: string;
  /** Specifiers (or their packages) it must never reach. */
  forbidden: readonly string[];
  /** A file of the graph that proves the walk followed relative imports. */
  reaches: string;
}

const entries: readonly EntryRow[] = [
  { entry: 'aicap', file: 'dist/index.js', forbidden: FRAMEWORK_FREE, reaches: 'dist/manifest/validate-manifest.js' },
  { entry: 'aicap/client', file: 'dist/client/index.js', forbidden: FRAMEWORK_FREE, reaches: 'dist/manifest/validate-manifest.js' },
  { entry: 'aicap/tools', file: 'dist/tools/index.js', forbidden: FRAMEWORK_FREE, reaches: 'dist/tools/select-tools.js' },
  { entry: 'aicap/server', file: 'dist/server/index.js', forbidden: FRAMEWORK_FREE, reaches: 'dist/server/create-manifest-handler.js' },
  // The MCP bridge needs the v2 server SDK (its optional peer), and nothing else from the list (not the v1 SDK).
  { entry: 'aicap/mcp', file: 'dist/mcp/index.js', forbidden: FRAMEWORK_FREE.filter((name) => name !== '@modelcontextprotocol/server'), reaches: 'dist/tools/export-tools.js' },
  // Each agent-framework entry loads its own framework (an optional peer) and no other.
  { entry: 'aicap/ai-sdk', file: 'dist/ai-sdk/index.js', forbidden: FRAMEWORK_FREE.filter((name) => name !== 'ai'), reaches: 'dist/client/run-tool-call.js' },
  { entry: 'aicap/openai-agents', file: 'dist/openai-agents/index.js', forbidden: FRAMEWORK_FREE.filter((name) => name !== '@openai/agents'), reaches: 'dist/client/run-tool-call.js' },
  // The file-backed stores: the file system is what they are for, and nothing else from the list.
  { entry: 'aicap/node', file: 'dist/node/index.js', forbidden: FRAMEWORK_FREE.filter((name) => !/^(node:)?fs(\/promises)?$/.test(name)), reaches: 'dist/node/create-file-cache-store.js' },
  { entry: 'aicap/langchain', file: 'dist/langchain/index.js', forbidden: FRAMEWORK_FREE.filter((name) => name !== '@langchain/core'), reaches: 'dist/client/run-tool-call.js' },
];

interface ImportGraph {
  files: Set<string>;
  /** Bare or `node:` specifier → files importing it. */
  external: Map<string, string[]>;
}

/** Walks static imports, re-exports and dynamic `import('…')` with literal specifiers. */
function importGraph(entryFile: string): ImportGraph {
  const files = new Set<string>();
  const external = new Map<string, string[]>();
  const pending = [entryFile];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (specifier.startsWith('.') || specifier.startsWith('/')) {
        const target = resolve(dirname(file), specifier);
        if (!existsSync(target)) throw new Error(`${relative(root, file)} imports ${specifier}, which does not exist`);
        pending.push(target);
      } else {
        external.set(specifier, [...(external.get(specifier) ?? []), relative(root, file)]);
      }
    }
  }
  return { files, external };
}

function packageOf(specifier: string): string {
  if (specifier.startsWith('node:')) return specifier;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

describe('entry purity', () => {
  it.each(entries)('$entry ($file) loads nothing from its forbidden list', (row) => {
    const entryFile = resolve(root, row.file);
    if (!existsSync(entryFile)) {
      // A subpath that has not been built yet has nothing to check; say so instead of passing silently.
      console.warn(`entry purity: skipping ${row.entry}: ${row.file} does not exist (run \`npm run build\`).`);
      expect(row.entry).not.toBe('aicap');
      return;
    }
    const graph = importGraph(entryFile);
    expect(graph.files).toContain(resolve(root, row.reaches));
    const violations = [...graph.external]
      .filter(([specifier]) => row.forbidden.includes(specifier) || row.forbidden.includes(packageOf(specifier)))
      .map(([specifier, importers]) => `${specifier} (imported by ${importers.join(', ')})`);
    expect(violations).toEqual([]);
  });

  it('sees through a forbidden import (the walker itself is not blind)', () => {
    // The CLI as compiled, before the build bundles it (the bundle carries its dependencies inside).
    const graph = importGraph(resolve(root, 'dist/cli/aicap.js'));
    expect([...graph.external.keys()]).toContain('node:fs/promises');
    expect([...graph.external.keys()].map(packageOf)).toContain('ajv');
  });
});
