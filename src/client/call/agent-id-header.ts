import { AicapError } from '../../errors/aicap-error.js';
import { optionTerm, worded } from '../../errors/message-term.js';
import type { Manifest } from '../../manifest/manifest-v0.js';

/**
 * The agent id header a call to this service carries: always when the manifest requires one (a
 * missing `agentId` fails before sending), else when the manifest names its header and the client
 * has an id. @internal
 */
export function agentIdHeader(manifest: Manifest, origin: string, agentId: string | undefined): { name: string; value: string } | undefined {
  const identification = manifest.auth?.agent_identification;
  if (identification?.requires_agent_id === true) {
    if (agentId === undefined) {
      throw new AicapError(
        'INVALID_OPTION',
        worded`${origin} requires an agent id on every call (\`auth.agent_identification\`), and none is set; pass ${optionTerm('agentId', { of: 'createClient' })} (the name your agent goes by, such as 'support-bot'). Nothing was sent.`,
      );
    }
    return { name: identification.id_header ?? 'X-Agent-ID', value: agentId };
  }
  return agentId !== undefined && identification?.id_header !== undefined ? { name: identification.id_header, value: agentId } : undefined;
}
