import type { Server } from '@modelcontextprotocol/server';
import type { Client } from '../client/index.js';
import type { DiscoveredService } from '../client/index.js';
import { formatModelText } from '../client/seam.js';
import { AicapError } from '../errors/aicap-error.js';
import type { Parameter, Prompt, Resource } from '../manifest/manifest-v0.js';
import { isQuarantinedForModel } from '../tools/scan-tools-for-model.js';
import type { McpSdk } from './load-mcp-sdk.js';
import { UNTRUSTED_META_KEY } from './to-call-tool-result.js';
import { isUiResource, isUiResourceUri, listUiResources, readUiResource } from './bridge-ui-resources.js';

const RESOURCE_SCHEME = 'aicap:';

interface ListedResource {
  uri: string;
  resource: Resource;
  service: DiscoveredService;
}

/**
 * Registers resources and prompts on one MCP server instance. Resources are `aicap://<namespace>/<id>`
 * (URI templates for parameterised ones); reading one goes through `client.readResource` and returns
 * the envelope's text (redacted, marked untrusted, capped), never the raw body. Quarantined or
 * changed entries are neither listed nor served.
 * @internal
 */
export function registerBridgeContent(server: Server, client: Client, sdk: McpSdk): void {
  server.setRequestHandler('resources/list', () => ({
    resources: [
      ...listResources(client)
        .filter((entry) => templateParameters(entry.resource).length === 0 && !isUiResource(entry.resource))
        .map((entry) => ({ uri: entry.uri, name: entry.resource.id, description: entry.resource.description, mimeType: 'text/plain' })),
      ...listUiResources(client),
    ],
  }));

  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: listResources(client)
      .filter((entry) => templateParameters(entry.resource).length > 0)
      .map((entry) => ({
        uriTemplate: `${entry.uri}{?${Object.keys(entry.resource.parameters ?? {}).join(',')}}`,
        name: entry.resource.id,
        description: entry.resource.description,
        mimeType: 'text/plain',
      })),
  }));

  server.setRequestHandler('resources/read', async (request) => {
    const uri = request.params.uri;
    if (isUiResourceUri(uri)) return readUiResource(client, sdk, uri);
    const parsed = parseResourceUri(uri);
    const entry = parsed && listResources(client).find((candidate) => candidate.service.namespace === parsed.namespace && candidate.resource.id === parsed.id);
    if (!parsed || !entry) throw new sdk.ResourceNotFoundError(uri, `No resource ${JSON.stringify(uri)}: resources/list and resources/templates/list name the resources this bridge serves.`);
    const envelope = await client.readResource(`${parsed.namespace}__${parsed.id}`, parsed.args);
    if (!envelope.ok) {
      if (envelope.error.code === 'INVALID_ARGUMENTS') throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, envelope.error.message);
      if (envelope.status === 404 || envelope.status === 410) throw new sdk.ResourceNotFoundError(uri, `${entry.service.origin} answered ${envelope.status} for ${uri}.`);
      throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InternalError, `Reading ${uri} failed: ${envelope.error.message}`);
    }
    return { contents: [{ uri, mimeType: 'text/plain', text: envelope.text, _meta: { [UNTRUSTED_META_KEY]: { resource: entry.resource.id, origin: entry.service.origin } } }] };
  });

  server.setRequestHandler('prompts/list', () => ({
    prompts: listPrompts(client).map(({ name, prompt }) => ({
      name,
      description: prompt.description,
      arguments: Object.entries(prompt.parameters ?? {}).map(([argument, parameter]) => ({
        name: argument,
        required: parameter.required === true,
        ...(parameter.description ? { description: parameter.description } : {}),
      })),
    })),
  }));

  server.setRequestHandler('prompts/get', async (request) => {
    const listed = listPrompts(client).find((candidate) => candidate.name === request.params.name);
    if (!listed) throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, `Unknown prompt ${JSON.stringify(request.params.name)}: prompts/list names the prompts this bridge serves.`);
    let rendered: Awaited<ReturnType<Client['getPrompt']>>;
    try {
      rendered = await client.getPrompt(listed.name, request.params.arguments ?? {});
    } catch (error) {
      if (AicapError.isInstance(error)) throw new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, error.message.replace(/\btool\b/g, 'prompt'));
      throw error;
    }
    // The template is the API's text, not the user's: it reaches the model marked as data.
    const { text } = formatModelText({
      toolId: listed.prompt.id,
      content: rendered.text,
      notice: `Prompt "${listed.prompt.id}" of ${listed.service.origin} (text written by that API, not by the user):`,
      maxLength: 20_000,
    });
    return { description: rendered.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] };
  });
}

function listResources(client: Client): ListedResource[] {
  return client
    .services()
    .flatMap((service) =>
      (service.manifest.resources ?? []).filter((resource) => isServed(service, resource)).map((resource) => ({ uri: `aicap://${service.namespace}/${resource.id}`, resource, service })),
    );
}

/** Prompts are named as tools are (`nameServiceTools`): the plain id when one service is bridged, `namespace__id` when several are. */
function listPrompts(client: Client): Array<{ name: string; prompt: Prompt; service: DiscoveredService }> {
  const services = client.services();
  const namespaced = services.length > 1;
  return services.flatMap((service) =>
    (service.manifest.prompts ?? []).filter((prompt) => isServed(service, prompt)).map((prompt) => ({ name: namespaced ? `${service.namespace}__${prompt.id}` : prompt.id, prompt, service })),
  );
}

/**
 * Quarantined (poisoning scan, run here on what the host would see, once per version) and changed
 * (pin mismatch) entries are withheld, prompts and resources as tools.
 */
function isServed(service: DiscoveredService, entry: Prompt | Resource): boolean {
  return !service.quarantinedToolIds.includes(entry.id) && !service.disabledToolIds.includes(entry.id) && !isQuarantinedForModel(entry);
}

function templateParameters(resource: Resource): string[] {
  return Object.entries(resource.parameters ?? {})
    .filter(([name, parameter]: [string, Parameter]) => parameter.required === true || resource.path.includes(`{${name}}`))
    .map(([name]) => name);
}

function parseResourceUri(uri: string): { namespace: string; id: string; args: Record<string, unknown> } | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== RESOURCE_SCHEME) return undefined;
  const args: Record<string, unknown> = {};
  for (const [name, value] of url.searchParams) args[name] = value;
  return { namespace: url.hostname, id: decodeURIComponent(url.pathname.replace(/^\//, '')), args };
}
