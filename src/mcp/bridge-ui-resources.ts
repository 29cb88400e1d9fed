import type { Client, DiscoveredService } from '../client/index.js';
import { isMcpAppMediaType, MCP_APP_MEDIA_TYPE } from '../manifest/is-mcp-app-media-type.js';
import type { Resource, Tool } from '../manifest/manifest-v0.js';
import type { BridgeTool } from './list-bridge-tools.js';
import type { McpSdk } from './load-mcp-sdk.js';

const UI_SCHEME = 'ui:';

/**
 * The MCP Apps `_meta.ui.csp` of a page (SEP-1865): the origins the host lets the sandboxed page
 * connect to and load from. Empty lists allow nothing beyond the page's own inline content.
 */
export interface McpAppCsp {
  connectDomains: string[];
  resourceDomains: string[];
}

interface UiEntry {
  uri: string;
  resource: Resource;
  service: DiscoveredService;
}

/** A UI resource listed by `resources/list`, with the CSP a host applies to it. @internal */
export interface ListedUiResource {
  uri: string;
  name: string;
  description: string;
  mimeType: string;
  _meta: { ui: { csp: McpAppCsp; prefersBorder?: boolean } };
}

/**
 * The UI resources (MCP Apps pages) of the bridged services, as `ui://<namespace>/<id>`: resources
 * whose `mime_type` is `text/html;profile=mcp-app` and that take no required argument (a host loads
 * a page by its URI alone). Quarantined or changed ones are withheld, as every other entry.
 * @internal
 */
export function listUiResources(client: Client): ListedUiResource[] {
  return uiEntries(client).map(({ uri, resource, service }) => ({ uri, name: resource.id, description: resource.description, mimeType: MCP_APP_MEDIA_TYPE, _meta: { ui: uiMeta(service, resource) } }));
}

/** Whether a resource is served as a UI resource, and so not as `aicap://` text. @internal */
export function isUiResource(resource: Resource): boolean {
  return isMcpAppMediaType(resource.mime_type) && !Object.values(resource.parameters ?? {}).some((parameter) => parameter.required === true) && !resource.path.includes('{');
}

/**
 * `_meta` for a tool whose manifest entry names a UI resource (`ui_resource`) that the bridge serves:
 * `{ ui: { resourceUri } }`, which MCP Apps hosts read to render the tool's results in that page.
 * @internal
 */
export function toolUiMeta(client: Client, origin: string, definition: Tool | Resource): { ui: { resourceUri: string } } | undefined {
  const id = 'ui_resource' in definition ? definition.ui_resource : undefined;
  if (id === undefined) return undefined;
  const entry = uiEntries(client).find(
    (candidate) => candidate.service.origin === origin && candidate.resource.id === id && (candidate.service.manifest.tools as readonly unknown[]).includes(definition),
  );
  return entry ? { ui: { resourceUri: entry.uri } } : undefined;
}

/**
 * Reads a `ui://` resource: the page's HTML as the API sent it (a host renders it, no model reads
 * it), with its CSP. The page is untrusted: it may connect to, and load from, only the origins its
 * manifest declares that are the API's own origin; everything else is dropped, so what the host
 * shows it (the tool's results) can travel back to that API only.
 * @internal
 */
export async function readUiResource(
  client: Client,
  sdk: McpSdk,
  uri: string,
): Promise<{ contents: Array<{ uri: string; mimeType: string; text: string; _meta: { ui: { csp: McpAppCsp; prefersBorder?: boolean } } }> }> {
  const entry = uiEntries(client).find((candidate) => candidate.uri === uri);
  if (!entry) throw new sdk.ResourceNotFoundError(uri, `No resource ${JSON.stringify(uri)}: resources/list names the UI resources this bridge serves.`);
  const envelope = await client.readResource(`${entry.service.namespace}__${entry.resource.id}`, {});
  if (!envelope.ok) {
    if (envelope.status === 404 || envelope.status === 410) throw new sdk.ResourceNotFoundError(uri, `${entry.service.origin} answered ${envelope.status} for ${uri}.`);
    throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InternalError, `Reading ${uri} failed: ${envelope.error.message}`);
  }
  if (typeof envelope.data !== 'string') throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InternalError, `Reading ${uri} failed: ${entry.service.origin} did not answer with HTML text.`);
  return { contents: [{ uri, mimeType: MCP_APP_MEDIA_TYPE, text: envelope.data, _meta: { ui: uiMeta(entry.service, entry.resource) } }] };
}

/** Whether a URI is one of this module's. @internal */
export function isUiResourceUri(uri: string): boolean {
  return uri.startsWith(`${UI_SCHEME}//`);
}

function uiEntries(client: Client): UiEntry[] {
  return client
    .services()
    .flatMap((service) =>
      (service.manifest.resources ?? [])
        .filter((resource) => isUiResource(resource) && !service.quarantinedToolIds.includes(resource.id) && !service.disabledToolIds.includes(resource.id))
        .map((resource) => ({ uri: `${UI_SCHEME}//${service.namespace}/${resource.id}`, resource, service })),
    );
}

function uiMeta(service: DiscoveredService, resource: Resource): { csp: McpAppCsp; prefersBorder?: boolean } {
  const apiOrigin = new URL(service.manifest.service.base_url).origin;
  const own = (origins: readonly string[] | undefined): string[] => (origins ?? []).filter((origin) => URL.canParse(origin) && new URL(origin).origin === apiOrigin).map(() => apiOrigin);
  const csp = { connectDomains: [...new Set(own(resource.ui?.connect_domains))], resourceDomains: [...new Set(own(resource.ui?.resource_domains))] };
  return resource.ui?.prefers_border === undefined ? { csp } : { csp, prefersBorder: resource.ui.prefers_border };
}

/** A listed tool's definition, with `_meta.ui.resourceUri` when its manifest entry names a served UI resource. @internal */
export function withUiMeta(client: Client, entry: BridgeTool): BridgeTool['definition'] {
  const meta = toolUiMeta(client, entry.tool.origin, entry.tool.definition);
  // Merged with what else the bridge puts in `_meta` (the service's health).
  return meta ? { ...entry.definition, _meta: { ...entry.definition._meta, ...meta } } : entry.definition;
}
