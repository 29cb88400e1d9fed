import type { Manifest } from '../manifest/manifest-v0.js';
import { assignToolNames } from './sanitize-tool-name.js';

/** What naming needs of a discovered service (the client's `DiscoveredService` fits). */
export interface NamedService {
  /** Where the manifest came from: the key of the service. */
  manifestUrl: string;
  /** The service's namespace, used as a prefix when several services are loaded. */
  namespace: string;
  /** The manifest whose tools and resources are named. */
  manifest: Pick<Manifest, 'tools' | 'resources'>;
}

/** The key of one tool or resource of one service in {@link nameServiceTools}'s result. */
export function serviceToolKey(service: NamedService, id: string): string {
  return `${service.manifestUrl}|${id}`;
}

/**
 * The name the model sees for every tool and resource of the loaded services: the plain id when one
 * service is loaded, `namespace__id` when several are, always sanitised, unique and ≤ 64 characters.
 * Names depend only on the services and their order, never on filters, so a name stays stable while
 * the catalog's selection changes.
 */
export function nameServiceTools(services: readonly NamedService[]): Map<string, string> {
  const namespaced = services.length > 1;
  const keys: string[] = [];
  const raws: string[] = [];
  for (const service of services) {
    for (const entry of [...service.manifest.tools, ...(service.manifest.resources ?? [])]) {
      keys.push(serviceToolKey(service, entry.id));
      raws.push(namespaced ? `${service.namespace}__${entry.id}` : entry.id);
    }
  }
  const names = assignToolNames(raws);
  return new Map(keys.map((key, index) => [key, names[index]!]));
}
