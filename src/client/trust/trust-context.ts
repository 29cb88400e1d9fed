import type { AuditEvent, DiscoveredService } from '../shapes/client-types.js';
import type { TrustOptions } from './trust-options.js';

/**
 * The slice of the client's shared state that trust decisions read and write: the trust options, the
 * service map, discovery's memo of scan policies and registrations, and the audit sink. The client's
 * context satisfies it; trust/ declares it so it depends on nothing above it.
 * @internal
 */
export interface TrustContext {
  readonly options: { readonly trust?: TrustOptions | undefined };
  readonly services: Map<string, DiscoveredService>;
  readonly discoveryMemo: {
    /** Manifests whose entries carry this client's model-scan policy. */
    readonly scanPolicies: WeakSet<object>;
    /** How each registered service object was decided (kept when a scan replaces the object). */
    readonly registrations: WeakMap<DiscoveredService, unknown>;
  };
  emitAudit(event: Omit<AuditEvent, 'timeInMs'>): void;
}
