/**
 * Packaging lint: publint over the package as npm would pack it (`npm pack --dry-run`, offline), in
 * strict mode so that warnings count as errors.
 */
import { readFileSync } from 'node:fs';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;

describe('package', () => {
  it('passes publint in strict mode', async () => {
    const { messages } = await publint({ pkgDir: root, strict: true, pack: 'npm' });
    const packageJson = JSON.parse(readFileSync(new URL('package.json', `file://${root}`), 'utf8')) as Record<string, unknown>;
    expect(messages.map((message) => `${message.type} ${message.code}: ${formatMessage(message, packageJson) ?? ''}`)).toEqual([]);
  });

  it('ships the JSON Schema at the exported path', () => {
    const packageJson = JSON.parse(readFileSync(new URL('package.json', `file://${root}`), 'utf8')) as { exports: Record<string, unknown>; files: string[] };
    expect(packageJson.exports['./schema/ai-capabilities-0.1.schema.json']).toBe('./schema/ai-capabilities-0.1.schema.json');
    expect(packageJson.exports['./schema/ai-capabilities-0.2.schema.json']).toBe('./schema/ai-capabilities-0.2.schema.json');
    expect(packageJson.exports['./schema/ai-capabilities-0.3.schema.json']).toBe('./schema/ai-capabilities-0.3.schema.json');
    expect(packageJson.files).toContain('schema');
  });
});
