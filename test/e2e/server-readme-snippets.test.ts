import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README producer quick start', () => {
  it.each(['at-a-glance.ts', 'express.ts', 'fastify.ts', 'hono.ts', 'node-http.ts', 'change-feed.ts'])('shows examples/quick-start/%s verbatim, so the snippet is the type-checked file', (name) => {
    const source = readFileSync(new URL(`../../examples/quick-start/${name}`, import.meta.url), 'utf8').trimEnd();
    expect(readme).toContain(`\`\`\`ts\n${source}\n\`\`\``);
  });
});
