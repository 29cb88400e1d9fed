import { readFileSync } from 'node:fs';
import type { Manifest, Tool } from '../../src/manifest/manifest-v0.js';

const paymentsText = readFileSync(new URL('../../examples/payments/payments.manifest.json', import.meta.url), 'utf8');

/** A fresh copy of the Payments fixture, with `service.base_url` moved to `baseUrl` (the test server). */
export function paymentsManifest(baseUrl: string): Manifest {
  const manifest = JSON.parse(paymentsText) as Manifest;
  manifest.service.base_url = baseUrl;
  return manifest;
}

/** A small valid manifest with the given tools (each needs only an id and a description). */
export function smallManifest(name: string, baseUrl: string, tools: Array<Partial<Tool> & { id: string; description: string }>): Manifest {
  return {
    schema_version: '0.1.0',
    service: { name, base_url: baseUrl },
    tools: tools.map((tool) => ({ path: `/${tool.id}`, method: 'GET', ...tool })),
  };
}

/** The manifest without the given tools, their scope entries and policy mentions (so it stays valid). */
export function withoutTools(manifest: Manifest, ids: readonly string[]): Manifest {
  const drop = new Set(ids);
  manifest.tools = manifest.tools.filter((tool) => !drop.has(tool.id));
  if (manifest.auth?.scopes) {
    for (const [scope, members] of Object.entries(manifest.auth.scopes)) manifest.auth.scopes[scope] = members.filter((id) => !drop.has(id));
  }
  if (manifest.policy?.human_approval_required) manifest.policy.human_approval_required = manifest.policy.human_approval_required.filter((id) => !drop.has(id));
  return manifest;
}
