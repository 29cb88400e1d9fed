import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README agent-framework quick starts', () => {
  it.each(['ai-sdk.ts', 'openai-agents.ts', 'langchain.ts', 'local-embeddings.ts'])('shows examples/quick-start/%s verbatim, so the snippet is the type-checked file', (name) => {
    const source = readFileSync(new URL(`../../examples/quick-start/${name}`, import.meta.url), 'utf8').trimEnd();
    expect(readme).toContain(`\`\`\`ts\n${source}\n\`\`\``);
  });
});
