import { AicapError } from '../../errors/aicap-error.js';
import type { DiscoveredService, ResolvedPrompt } from '../shapes/client-types.js';

/**
 * Finds a prompt by `namespace__id` or by its plain id when exactly one loaded service declares it.
 * Throws `TOOL_NOT_FOUND` naming the candidates otherwise.
 * @internal
 */
export function resolvePrompt(services: Iterable<DiscoveredService>, nameOrId: string): ResolvedPrompt {
  const matches: ResolvedPrompt[] = [];
  for (const service of services) {
    for (const prompt of service.manifest.prompts ?? []) {
      if (`${service.namespace}__${prompt.id}` === nameOrId) return { service, prompt };
      if (prompt.id === nameOrId) matches.push({ service, prompt });
    }
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new AicapError(
      'TOOL_NOT_FOUND',
      `Prompt id "${nameOrId}" is declared by several services; use one of: ${matches.map(({ service, prompt }) => `${service.namespace}__${prompt.id}`).join(', ')}.`,
    );
  }
  throw new AicapError('TOOL_NOT_FOUND', `No prompt named "${nameOrId.slice(0, 100)}" in the discovered services.`);
}
