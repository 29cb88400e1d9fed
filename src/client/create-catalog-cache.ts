import { createCatalog, type Catalog, type CatalogOptions } from '../tools/create-catalog.js';
import type { DiscoveredService } from './shapes/client-types.js';
import { sameServices } from './same-services.js';
import type { SelectionIndexCache } from './selection-index-cache.js';

/** Catalogs already built for a client, by services and options. @internal */
export interface CatalogCache {
  /** The catalog of these services with these options: the one built before when neither changed. */
  catalog(services: readonly DiscoveredService[], options: CatalogOptions | undefined): Catalog;
  /** Reads the stored selection index of these services unless their catalog is already built. */
  prefetch(services: readonly DiscoveredService[]): Promise<void>;
}

// Distinct option sets kept per client; a caller uses one or two (with and without resources, say).
const MAX_CACHED_CATALOGS = 8;

/**
 * Keeps the catalogs a client built, keyed by the service objects (by identity: discovery stores a
 * new object only when something about a service changed) and by the options' values. An agent that
 * calls `selectTools(client.catalog().tools, …)` every turn then gets the same array, whose search
 * index `selectTools` keeps, instead of a new catalog and a new index per turn. With `indexes`, a new
 * catalog starts with the index an earlier process stored, or stores the one its first query builds.
 * @internal
 */
export function createCatalogCache(indexes?: SelectionIndexCache): CatalogCache {
  let entries: Array<{ services: readonly DiscoveredService[]; key: string; catalog: Catalog }> = [];
  return {
    catalog(services, options) {
      const key = optionsKey(options);
      if (key === undefined) return createCatalog([...services], options);
      const known = entries.find((entry) => entry.key === key && sameServices(entry.services, services));
      if (known) return known.catalog;
      const catalog = createCatalog([...services], options);
      indexes?.adopt(services, catalog.tools);
      // Entries for another service list are stale for good: services only move forward.
      entries = [{ services, key, catalog }, ...entries.filter((entry) => sameServices(entry.services, services))].slice(0, MAX_CACHED_CATALOGS);
      return catalog;
    },
    async prefetch(services) {
      if (indexes === undefined || entries.some((entry) => sameServices(entry.services, services))) return;
      await indexes.prefetch(services);
    },
  };
}

/** The options as text, or undefined when some value (a function) cannot be compared that way. */
function optionsKey(options: CatalogOptions | undefined): string | undefined {
  if (options === undefined) return '{}';
  if (Object.values(options).some((value) => typeof value === 'function')) return undefined;
  return JSON.stringify(options);
}
