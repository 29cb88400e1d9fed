import type { Agent as UndiciAgent } from 'undici';
import { closedError } from '../../internal/http/undici-parts.js';

/** An undici `Agent` made on first use, and closing it. @internal */
export interface LazyAgent {
  agent(): UndiciAgent;
  close(): Promise<void>;
}

/**
 * A client makes a guarded fetch for calls and one for manifests, and many clients only ever use one
 * of them (a discovery makes no call): an agent made on first use costs nothing until then, neither to
 * make nor to close. One asked for after `close` is closed at once, so the request fails as it would
 * on a closed agent instead of opening a pool that nothing closes.
 */
export function createLazyAgent(create: () => UndiciAgent): LazyAgent {
  let made: UndiciAgent | undefined;
  let closed = false;
  return {
    agent() {
      if (made === undefined) {
        made = create();
        if (closed) void made.close();
      }
      return made;
    },
    close() {
      closed = true;
      if (made === undefined) return Promise.resolve();
      // Nothing in flight (no request queued, none whose response is still being read): what a graceful
      // close would wait for is not there, and destroying with a ready-made error skips building three.
      return isIdle(made) ? made.destroy(closedError()) : made.close();
    },
  };
}

/** True when no request of the agent is queued or running (a running one may still be reading its body). */
function isIdle(agent: UndiciAgent): boolean {
  for (const stats of Object.values(agent.stats)) if (stats.size !== 0) return false;
  return true;
}
