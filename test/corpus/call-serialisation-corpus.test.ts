// What the generator carries from the big real descriptions so that calls are what each provider's
// OpenAPI accepts (issue 37): encodings, multipart, vendor Accept types, declared redirects, the
// required members of optional bodies, and HTTP Basic.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Manifest, Tool } from '../../src/manifest/manifest-v0.js';
import { validateManifest } from '../../src/manifest/validate-manifest.js';
import { generateManifest } from '../../src/openapi/generate-manifest.js';

const big = resolve(import.meta.dirname, '../../../shared/corpus/big');
const available = existsSync(big);
if (!available) console.warn(`Skipping the serialisation corpus checks: ${big} is absent (the shared corpus is not beside this checkout).`);

async function generated(file: string): Promise<{ manifest: Manifest; tool: (id: string) => Tool }> {
  const { manifest } = await generateManifest({ input: join(big, file) });
  expect(validateManifest(manifest).issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  const tools = new Map(manifest.tools.map((tool) => [tool.id, tool]));
  return { manifest, tool: (id) => tools.get(id) ?? expect.unreachable(`no tool ${id}`) };
}

describe.skipIf(!available)('serialisation carried from the big corpus descriptions', () => {
  it('Stripe: deepObject form fields and queries, the multipart upload, Basic with bearer', { timeout: 120_000 }, async () => {
    const { manifest, tool } = await generated('stripe-spec3-2022-04.json');
    expect(manifest.auth).toMatchObject({ type: 'basic', supported_methods: ['basic', 'bearer'] });
    expect(tool('PostSkus').parameters!['inventory']).toMatchObject({ required: true, in: 'body', style: 'deepObject', explode: true });
    expect(tool('GetCharges').parameters!['created']).toMatchObject({ in: 'query', style: 'deepObject', explode: true });
    expect(tool('PostFiles')).toMatchObject({ request_content_type: 'multipart/form-data', parameters: { file: { required: true }, file_link_data: { style: 'deepObject', explode: true } } });
    // Every object form field says how it travels (none is left to JSON text); the whole-body
    // parameters left are Stripe's empty DELETE bodies.
    const formObjects = manifest.tools
      .filter((entry) => entry.request_content_type === 'application/x-www-form-urlencoded')
      .flatMap((entry) => Object.entries(entry.parameters ?? {}).filter(([name, parameter]) => parameter.in === 'body' && parameter.type === 'object' && name !== entry.body_parameter));
    expect(formObjects.length).toBeGreaterThan(100);
    expect(formObjects.filter(([, parameter]) => parameter.style !== 'deepObject')).toEqual([]);
  });

  it('Twilio: HTTP Basic, required members of optional form bodies, the declared 307', { timeout: 120_000 }, async () => {
    const { manifest, tool } = await generated('twilio-api-v2010.json');
    expect(manifest.auth).toEqual({ type: 'basic' });
    expect(tool('CreateCall')).toMatchObject({ request_content_type: 'application/x-www-form-urlencoded', body_required: ['To', 'From'] });
    expect(tool('FetchRecordingAddOnResultPayloadData').returns?.redirect_statuses).toEqual([307]);
  });

  it('GitHub: vendor +json Accept types, download redirects, required members of optional bodies', { timeout: 120_000 }, async () => {
    const { manifest, tool } = await generated('github-api.github.com-2020-07.json');
    expect(tool('repos_get-pull-request-review-protection').returns?.content_type).toBe('application/vnd.github.luke-cage-preview+json');
    expect(tool('repos_download-zipball-archive').returns?.redirect_statuses).toEqual([302]);
    expect(tool('repos_create-in-org').body_required).toEqual(['name']);
    expect(manifest.tools.filter((entry) => entry.returns?.content_type?.endsWith('+json')).length).toBeGreaterThanOrEqual(8);
  });

  it('Slack: form bodies keep their required fields when the body is optional', { timeout: 120_000 }, async () => {
    const { manifest } = await generated('slack-web-openapi-v2.json');
    expect(manifest.auth?.type).toBe('oauth2');
    expect(manifest.tools.filter((entry) => entry.body_required !== undefined).length).toBeGreaterThan(0);
  });
});
