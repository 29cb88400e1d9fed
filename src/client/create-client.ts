import { createClientContext } from './client-context.js';
import type { ClientOptions } from './client-options.js';
import type { DiscoveredService, ResolvedTool } from './client-types.js';
import { discoverService, pinDigest, pinKey, type DiscoverOptions } from './discover/discover-service.js';
import { NotImplementedError } from './errors/not-implemented-error.js';
import { resolveTool } from './resolve-tool.js';
import type { ManifestChangeEvent } from './trust/manifest-change-event.js';
import { createCatalog, type Catalog, type CatalogOptions } from '../tools/create-catalog.js';

/** An orchestrator's view of the HTTP APIs it uses: discovery, trust, the tool catalog, and calls. */
export interface Client {
  /**
   * Finds, fetches, validates and checks the manifest of an origin (or a manifest URL), then keeps it:
   * calling it again refreshes (within HTTP caching rules) and reports changes.
   * @example
   * const payments = await client.discover('https://api.example.com', { credentials: { token } });
   */
  discover(originOrUrl: string | URL, options?: DiscoverOptions): Promise<DiscoveredService>;
  /** Every discovered service, in discovery order. */
  services(): DiscoveredService[];
  /** The tools to hand a model: filtered by scopes, deprecation, quarantine and pins; uniquely named. */
  catalog(options?: CatalogOptions): Catalog;
  /** Pins the current digest of a tool (by name or id): later changes disable it until approved again. Also re-enables a tool whose change was reviewed. */
  approve(toolNameOrId: string): Promise<void>;
  /** Finds a tool by the model-facing name, by `namespace__id`, or by a plain id declared by one service only. */
  resolveTool(nameOrId: string): ResolvedTool;
  /** Subscribes to manifest changes; returns the unsubscribe function. */
  on(event: 'change', listener: (event: ManifestChangeEvent) => void): () => void;
  /** Calls a tool. */
  call(toolId: string, args?: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
  /** Walks every page of a paginated tool. */
  paginate(toolId: string, args?: Record<string, unknown>, options?: Record<string, unknown>): AsyncIterable<unknown>;
  /** Reads a resource. */
  readResource(resourceId: string, args?: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
  /** Renders a prompt template. */
  getPrompt(promptId: string, args?: Record<string, unknown>): Promise<unknown>;
  /** Starts an async job and tracks it. */
  startJob(toolId: string, args?: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
  /** Closes connection pools. */
  close(): Promise<void>;
}

/**
 * Creates a client. Bad options throw `INVALID_OPTION` here, not on first use.
 * @example
 * const client = createClient();
 * await client.discover('https://api.example.com');
 * const tools = client.catalog().export('openai');
 */
export function createClient(options: ClientOptions = {}): Client {
  const context = createClientContext(options);
  const notImplemented = (method: string): never => {
    throw new NotImplementedError(method);
  };
  return {
    discover: (originOrUrl, discoverOptions) => discoverService(context, originOrUrl, discoverOptions),
    services: () => [...context.services.values()],
    catalog: (catalogOptions) => createCatalog([...context.services.values()], catalogOptions),
    async approve(toolNameOrId) {
      const { service, tool } = resolveTool(context, toolNameOrId);
      await context.pins.set(pinKey(service.origin, tool.id), pinDigest(service.manifest, tool));
      const updated: DiscoveredService = {
        ...service,
        disabledToolIds: service.disabledToolIds.filter((id) => id !== tool.id),
        findings: service.findings.filter((finding) => !(finding.code === 'tool.pin_mismatch' && finding.toolId === tool.id)),
      };
      context.services.set(service.manifestUrl, updated);
    },
    resolveTool: (nameOrId) => resolveTool(context, nameOrId),
    on(event, listener) {
      if (event !== 'change') throw new NotImplementedError(`on('${String(event)}')`);
      context.changeListeners.add(listener);
      return () => void context.changeListeners.delete(listener);
    },
    call: (_toolId, _args, _options) => Promise.reject(new NotImplementedError('call')),
    paginate: (_toolId, _args, _options) => notImplemented('paginate'),
    readResource: (_resourceId, _args, _options) => Promise.reject(new NotImplementedError('readResource')),
    getPrompt: (_promptId, _args) => Promise.reject(new NotImplementedError('getPrompt')),
    startJob: (_toolId, _args, _options) => Promise.reject(new NotImplementedError('startJob')),
    close: () => context.close(),
  };
}
