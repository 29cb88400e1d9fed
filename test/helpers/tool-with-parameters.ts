import type { Parameter, Tool } from '../../src/manifest/manifest-v0.js';
import type { CatalogTool } from '../../src/tools/create-catalog.js';
import { catalogOf } from './catalog-of.js';
import { smallManifest } from './client-manifests.js';

/** One catalog tool (POST /id) with these parameters, for unit tests of an exporter. */
export function toolWithParameters(id: string, parameters: Record<string, Parameter>, tool: Partial<Tool> = {}): CatalogTool {
  return catalogOf(smallManifest('shop', 'https://api.example.com', [{ id, description: `The ${id} tool.`, method: 'POST', parameters, ...tool }]))[0]!;
}
