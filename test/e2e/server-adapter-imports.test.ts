import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../src/', import.meta.url).pathname;
const FRAMEWORKS = /^(?:express|fastify|fastify-plugin|hono|hono\/.*|@hono\/node-server)$/;

/** Every non-test source file of a producer entry point, with the specifiers it imports at runtime. */
function runtimeImports(directory: string): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  for (const name of readdirSync(join(root, directory))) {
    if (!name.endsWith('.ts') || name.includes('.test')) continue;
    const text = readFileSync(join(root, directory, name), 'utf8');
    for (const match of text.matchAll(/^\s*import\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm)) found.push([`${directory}/${name}`, match[1] as string]);
    for (const match of text.matchAll(/import\(\s*'([^']+)'\s*\)/g)) found.push([`${directory}/${name}`, match[1] as string]);
  }
  return found;
}

describe('producer entry points', () => {
  it.each(['server', 'express', 'fastify', 'hono'])('aicap/%s imports no framework at runtime (type-only imports, optional peers)', (directory) => {
    const imports = runtimeImports(directory);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter(([, specifier]) => FRAMEWORKS.test(specifier))).toEqual([]);
  });

  it('finds a runtime framework import when there is one', () => {
    const text = "import express from 'express';\nimport type { Hono } from 'hono';";
    const matches = [...text.matchAll(/^\s*import\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm)].map((match) => match[1]);
    expect(matches).toEqual(['express']);
  });
});
