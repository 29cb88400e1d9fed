// The three agent adapters have one shape (docs/architecture.md): a user who changes
// framework finds the same names with the framework's prefix. Read from each entry's own exports.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ADAPTERS = { 'ai-sdk': 'AISDK', 'openai-agents': 'OpenAIAgents', langchain: 'LangChain' } as const;

function exportedNames(folder: string): Set<string> {
  const text = readFileSync(new URL(`../../src/${folder}/index.ts`, import.meta.url), 'utf8');
  const names = new Set<string>();
  for (const match of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const part of match[1]!.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .at(-1);
      if (name) names.add(name);
    }
  }
  return names;
}

describe('agent adapters export one shape', () => {
  it.each(Object.entries(ADAPTERS))('%s exports create<F>Tools, <F>Tool, <F>ToolsOptions and the shared client types', (folder, prefix) => {
    const names = exportedNames(folder);
    for (const name of [`create${prefix}Tools`, `${prefix}Tool`, `${prefix}ToolsOptions`, 'AgentToolClient', 'AgentToolOptions', 'ToolCallOutcome'])
      expect(names, `${folder} lacks ${name}`).toContain(name);
  });
});
