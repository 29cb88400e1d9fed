import type { Manifest } from '../../manifest/manifest-v0.js';
import type { CatalogTool } from '../../tools/create-catalog.js';
import { scanManifest } from './scan-manifest.js';

/**
 * The poisoning scan of the definitions about to be handed to a model (a tool search's results): the
 * tools with a high-severity finding are left out. The default `scan` of the adapters' tool searches;
 * the same scan the client runs on a whole manifest, on just these tools.
 */
export function scanExportedTools(tools: readonly CatalogTool[]): CatalogTool[] {
  if (tools.length === 0) return [];
  const { findings } = scanManifest({ tools: tools.map((tool) => tool.definition) } as unknown as Manifest);
  const quarantined = new Set(findings.filter((finding) => finding.severity === 'high').map((finding) => finding.toolId));
  return tools.filter((tool) => !quarantined.has(tool.id));
}
