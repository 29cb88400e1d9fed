import type { Manifest } from '../../src/manifest/manifest-v0.js';
import { createCatalog, type CatalogTool } from '../../src/tools/create-catalog.js';

/** The catalog tools of one trusted service serving `manifest` on https://api.example.com, for unit tests. */
export function catalogOf(manifest: Manifest, namespace = 'shop'): CatalogTool[] {
  const service = {
    manifestUrl: 'https://api.example.com/.well-known/ai-capabilities',
    namespace,
    origin: 'https://api.example.com',
    manifest,
    grantedScopes: undefined,
    findings: [],
    quarantinedToolIds: [],
    disabledToolIds: [],
  };
  return createCatalog([service]).tools;
}
