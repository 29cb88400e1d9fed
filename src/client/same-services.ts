import type { DiscoveredService } from './shapes/client-types.js';

/**
 * True when both lists hold the same service objects in the same order. Identity is enough: discovery
 * stores a new object whenever something about a service changes (manifest, findings, quarantine,
 * pins, approvals, scopes). @internal
 */
export function sameServices(left: readonly DiscoveredService[], right: readonly DiscoveredService[]): boolean {
  return left.length === right.length && left.every((service, index) => service === right[index]);
}
