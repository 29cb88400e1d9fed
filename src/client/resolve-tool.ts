import { AicapError } from '../errors/aicap-error.js';
import { nameServiceTools, serviceToolKey } from '../tools/name-service-tools.js';
import type { ClientContext } from './client-context.js';
import type { ResolvedTool } from './client-types.js';

/**
 * Finds a tool or resource by the name the model saw (`payments__analyze_transactions`), by
 * `namespace__id`, or by its plain id when exactly one loaded service declares it. Throws
 * `TOOL_NOT_FOUND` listing the candidates when the name is unknown or ambiguous.
 * @internal
 */
export function resolveTool(context: ClientContext, nameOrId: string): ResolvedTool {
  const services = [...context.services.values()];
  const names = nameServiceTools(services);
  const byId: ResolvedTool[] = [];
  for (const service of services) {
    for (const tool of [...service.manifest.tools, ...(service.manifest.resources ?? [])]) {
      const exposedName = names.get(serviceToolKey(service, tool.id))!;
      const resolved: ResolvedTool = { service, tool, exposedName };
      if (exposedName === nameOrId || `${service.namespace}__${tool.id}` === nameOrId) return resolved;
      if (tool.id === nameOrId) byId.push(resolved);
    }
  }
  if (byId.length === 1) return byId[0]!;
  if (byId.length > 1) {
    throw new AicapError('TOOL_NOT_FOUND', `Tool id "${nameOrId}" is declared by several services; use one of: ${byId.map((candidate) => candidate.exposedName).join(', ')}.`);
  }
  const known = [...names.values()].slice(0, 20).join(', ');
  throw new AicapError('TOOL_NOT_FOUND', `No tool named "${nameOrId.slice(0, 100)}" in the discovered services${known ? ` (known: ${known})` : '; call `client.discover(origin)` first'}.`);
}

/**
 * Throws `TOOL_DISABLED` when the tool must not be called: quarantined by the poisoning scan (and not
 * overridden) or changed since it was approved. The call part calls this before anything else.
 * @internal
 */
export function assertToolEnabled(resolved: ResolvedTool): void {
  const { service, tool } = resolved;
  if (service.disabledToolIds.includes(tool.id)) {
    throw new AicapError('TOOL_DISABLED', `Tool "${tool.id}" of ${service.origin} changed since it was approved; review the difference and call \`client.approve('${tool.id}')\` to enable it again.`);
  }
  if (service.quarantinedToolIds.includes(tool.id)) {
    const reasons = new Set(service.findings.filter((finding) => finding.toolId === tool.id && finding.severity === 'high').map((finding) => `${finding.code} at ${finding.pointer}`));
    throw new AicapError('TOOL_DISABLED', `Tool "${tool.id}" of ${service.origin} is quarantined (${[...reasons].join('; ')}); add it to \`trust.allowQuarantined\` only after reading the findings.`);
  }
}
