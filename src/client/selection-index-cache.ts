import { createHash } from 'node:crypto';
import { AICAP_VERSION } from '../internal/aicap-version.js';
import type { CatalogTool } from '../tools/create-catalog.js';
import { loadedSelectionIndexCodec, whenToolIndexReady, type SelectionIndexCodec } from '../tools/selection/selection-index-hooks.js';
import { readSignedRecord, recordSlotOf, writeSignedRecord, type RecordSlot } from './cache/signed-record.js';
import type { ClientContext } from './client-context.js';
import { sameServices } from './same-services.js';
import type { DiscoveredService } from './shapes/client-types.js';

/** The selection indexes of a client's catalogs, kept in its cache store for the next process. @internal */
export interface SelectionIndexCache {
  /**
   * Reads the index stored for these services, so that the catalog built for them next starts with it
   * and its first `selectTools` costs the query, not the index build. Async because stores are; the
   * catalog that uses it is built synchronously.
   */
  prefetch(services: readonly DiscoveredService[]): Promise<void>;
  /** Gives a new catalog's tools the prefetched index, or else stores the index once a query builds it. */
  adopt(services: readonly DiscoveredService[], tools: readonly CatalogTool[]): void;
  /** Waits for the records being written (`client.close` does, so a CLI run leaves its index behind). */
  flush(): Promise<void>;
}

// An index is derived from the manifests alone, like the verdicts: it can be unused, never wrong.
const RECORD_TIME_TO_LIVE_IN_MS = 30 * 86_400_000;

/**
 * Persists the index `selectTools` builds for a catalog (`serializeSelectionIndex`) in the client's
 * cache store, under the aicap version and the services' manifest URLs and digests, and restores it in
 * a later process that discovers the same manifests. The record holds the fingerprint of the tool list
 * it was built for, so a catalog that differs in scopes, quarantine, pins or options builds its own
 * index (and replaces the record); a record that is damaged is ignored and replaced. The store rules of
 * the verified-manifest records apply (`trust.verifiedManifests`): kept in a private store, or signed
 * with `signingKey` in a shared one, never read unsigned from a store others write, since a forged
 * index would choose which tools a model sees.
 * @internal
 */
export function createSelectionIndexCache(context: ClientContext): SelectionIndexCache {
  let prefetched: { services: readonly DiscoveredService[]; text: string | undefined } | undefined;
  const writes = new Set<Promise<void>>();
  const persist = (slot: RecordSlot, codec: SelectionIndexCodec, tools: readonly CatalogTool[]): void => {
    // After the query that built the index has answered: serialising a large index is not its cost.
    const write = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => writeSignedRecord(slot, JSON.stringify(codec.serialize(tools)), RECORD_TIME_TO_LIVE_IN_MS))
      .finally(() => writes.delete(write));
    writes.add(write);
  };
  return {
    async prefetch(services) {
      // A process that has not loaded the selection engine ranks no tools: nothing to read for it.
      if (loadedSelectionIndexCodec() === undefined) return;
      if (prefetched !== undefined && sameServices(prefetched.services, services)) return;
      const slot = slotOf(context, services);
      prefetched = { services, text: slot && (await readSignedRecord(slot)) };
    },
    adopt(services, tools) {
      const codec = loadedSelectionIndexCodec();
      const slot = codec && slotOf(context, services);
      if (codec === undefined || slot === undefined || tools.length === 0) return;
      const text = prefetched !== undefined && sameServices(prefetched.services, services) ? prefetched.text : undefined;
      // An earlier client of this process may hold the record's index already: then the record is not parsed.
      if (text !== undefined && (codec.share(tools, text) || restored(codec, tools, text))) return;
      whenToolIndexReady(tools, () => persist(slot, codec, tools));
    },
    async flush() {
      // Most clients write no index: closing one then makes no list and waits for nothing.
      if (writes.size === 0) return;
      await Promise.all([...writes]);
    },
  };
}

function slotOf(context: ClientContext, services: readonly DiscoveredService[]): RecordSlot | undefined {
  const setting = context.options.trust?.verifiedManifests;
  if (setting === false || services.length === 0) return undefined;
  const manifests = createHash('sha256')
    .update(services.map((service) => `${service.manifestUrl} ${service.digest}`).join('\n'))
    .digest('base64url');
  return recordSlotOf(context.cache, `selection-index|${AICAP_VERSION}|${manifests}`, setting?.signingKey);
}

/** True when the record was the index of exactly these tools and is now theirs. */
function restored(codec: SelectionIndexCodec, tools: readonly CatalogTool[], text: string): boolean {
  try {
    return codec.restore(tools, JSON.parse(text));
  } catch {
    // Damaged (a truncated file, a record of another shape): built again on the first query.
    return false;
  }
}
