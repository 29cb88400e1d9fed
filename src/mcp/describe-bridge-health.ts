import type { Client, ToolHealthState } from '../client/index.js';

/** The `_meta` key under which a listed tool carries its service's health (Appendix A). */
export const HEALTH_META_KEY = 'dev.aicap/health';

/**
 * Reads the health resource of every bridged service (HTTP caching applies: within its max-age no
 * request), so that `tools/list` reports what is current. Never throws: an unreadable resource is unknown.
 * @internal
 */
export async function refreshBridgeHealth(client: Client): Promise<void> {
  await Promise.all(client.services().map((service) => client.health(service).catch(() => undefined)));
}

/**
 * What the bridge tells a host about a tool's health: `_meta["dev.aicap/health"]` with the status and
 * the time to retry, and for `degraded` or `maintenance` a sentence appended to the description. Only
 * the status and the time go out, built here: the resource's `message` is the API's own text and never
 * reaches the host or the model (spec section 7.21). @internal
 */
export function describeBridgeHealth(state: ToolHealthState | undefined): { meta?: Record<string, unknown>; suffix: string } {
  if (state === undefined) return { suffix: '' };
  const retryAt = state.retryAtInMs === null || !Number.isFinite(state.retryAtInMs) ? null : new Date(state.retryAtInMs).toISOString();
  const meta = { [HEALTH_META_KEY]: { status: state.status, retryAt } };
  if (state.status === 'ok') return { meta, suffix: '' };
  const until = retryAt === null ? '' : ` until ${retryAt}`;
  const suffix =
    state.status === 'maintenance'
      ? `\n\n[Service status: maintenance${until}. Calls are refused until then; do not call this tool now.]`
      : `\n\n[Service status: degraded${until}. Calls may be slow or fail.]`;
  return { meta, suffix };
}
