/**
 * Response links of real descriptions become manifest links. In ../shared/corpus only the OpenAPI
 * project's own link example carries Link Objects (big/, medium/ and apis-guru/ declare none:
 * `node scripts/count-corpus-links.mjs` lists them per API), so this checks that one exactly.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateManifest } from '../../src/manifest/validate-manifest.js';
import { generateManifest } from '../../src/openapi/generate-manifest.js';

const example = resolve(import.meta.dirname, '../../../shared/corpus/oai-examples/oas3.0/link-example.json');
const available = existsSync(example);
if (!available) console.warn(`Skipping the corpus link test: ${example} is absent (the shared corpus is not checked out next to this repository).`);

describe.skipIf(!available)('links from the OpenAPI link example', () => {
  it('declares one link per Link Object, by operationId, with body pointers', async () => {
    const { manifest, warnings } = await generateManifest({ input: example, strict: false });
    expect(validateManifest(manifest).valid).toBe(true);
    const links = Object.fromEntries([...manifest.tools, ...(manifest.resources ?? [])].filter((entry) => entry.links).map((entry) => [entry.id, entry.links]));
    expect(links).toEqual({
      getUserByName: [{ tool: 'getRepositoriesByOwner', parameters: { username: '$result#/username' } }],
      getRepositoriesByOwner: [{ tool: 'getRepository', parameters: { username: '$result#/owner/username', slug: '$result#/slug' } }],
      getRepository: [{ tool: 'getPullRequestsByRepository', parameters: { username: '$result#/owner/username', slug: '$result#/slug' } }],
      getPullRequestsById: [{ tool: 'mergePullRequest', parameters: { username: '$result#/author/username', slug: '$result#/repository/slug', pid: '$result#/id' } }],
    });
    expect(warnings.filter((warning) => warning.code === 'link.unsupported')).toEqual([]);
  });
});
