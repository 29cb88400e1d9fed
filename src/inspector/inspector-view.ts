import { readFile } from 'node:fs/promises';
import { parseManifest, WELL_KNOWN_PATH, type Manifest, type ValidationIssue } from '../index.js';
import { parseJsonDocument } from '../manifest/parse-json-document.js';
import { checkCapabilities, type CheckReport, type Client, type DiscoveredService, type GuardedFetch } from '../client/index.js';
import { isRecord } from '../internal/is-record.js';
import { toolInputSchema, type CatalogTool } from '../tools/index.js';

/** Everything the page shows about one service, computed once per load. */
export interface InspectorView {
  /** What was loaded: an origin or a file path. */
  source: string;
  /** The origin calls go to (the manifest's own origin, or `base_url`'s for a file). */
  origin: string | undefined;
  /** The manifest as received (shown raw even when the client refused it). */
  manifest: unknown;
  /** Schema and semantic issues, each with its JSON Pointer into `manifest`. */
  issues: ValidationIssue[];
  /** Why the client refused the manifest, when it did (then `service` fields are absent). */
  refused?: { code: string; message: string };
  /** The trusted view: digest, trust findings, quarantined and disabled tools. */
  trust?: Pick<DiscoveredService, 'digest' | 'findings' | 'quarantinedToolIds' | 'disabledToolIds' | 'origin' | 'manifestUrl'> & { baseUrl: string };
  /** The catalog a model would get: tool summaries (details come from `/api/tool`). */
  catalog?: { tools: ToolSummary[]; withheld: { name: string; id: string; reason: string; findings: unknown[] }[]; warnings: string[] };
  /** `aicap check` for an origin. */
  check?: CheckReport;
  /** The domain's AI Catalog document, when it serves one. */
  aiCatalog?: unknown;
}

/** One row of the tool list. */
export interface ToolSummary {
  name: string;
  id: string;
  method: string;
  path: string;
  description: string;
  deprecated: boolean;
  readOnly: boolean;
  async: boolean;
  needsApproval: boolean;
}

/** What {@link loadInspectorView} needs. */
export interface LoadInspectorViewInput {
  source: string;
  token: string | undefined;
  client: Client;
  /** Guarded fetch that trusts the typed origin only. */
  fetch: GuardedFetch;
  timeoutInMs: number;
  allow: readonly string[];
  /**
  Runs `aicap check` on a typed origin (a stage of its own: its test injects it, as `fetch`).

  @default checkCapabilities with `timeoutInMs`, `allow` and the token
  */
  check?: (origin: string) => Promise<CheckReport>;
}

/**
 * Loads an origin or a file the way the page shows it: the raw document with the strict parser's
 * and validator's issues (kept even when the client refuses the manifest), then the client's own
 * view of it (trust, catalog), the `aicap check` report and the domain's AI Catalog.
 */
export async function loadInspectorView(input: LoadInspectorViewInput): Promise<{ view: InspectorView; service: DiscoveredService | undefined }> {
  const { source, token, client } = input;
  const isOrigin = /^https?:\/\//i.test(source);
  // Bytes, not text: decoding here would replace bad UTF-8 with U+FFFD and hide it from the parser, and
  // a one-line text is taken by client.load for a file path given by mistake.
  let raw: Uint8Array;
  try {
    raw = isOrigin ? await fetchManifestBytes(input.fetch, source) : await readFile(source);
  } catch (error) {
    return { view: { source, origin: undefined, manifest: undefined, issues: [], refused: refusalOf(error) }, service: undefined };
  }
  const view: InspectorView = { source, origin: undefined, manifest: parseOrText(raw), issues: parseManifest(raw).issues };
  let service: DiscoveredService | undefined;
  try {
    const credentialOptions = token ? { credentials: { token } } : {};
    service = isOrigin ? await client.discover(source, credentialOptions) : await client.load(raw, credentialOptions);
    describeService(view, service, client);
  } catch (error) {
    view.refused = refusalOf(error);
  }
  if (isOrigin) {
    view.check = await (input.check ?? ((origin) => checkCapabilities(origin, { timeoutInMs: input.timeoutInMs, allow: input.allow, ...(token ? { token } : {}) })))(source);
    view.aiCatalog = await fetchOptionalJson(input.fetch, new URL('/.well-known/ai-catalog.json', source).href);
  }
  return { view, service };
}

function describeService(view: InspectorView, loaded: DiscoveredService, client: Client): void {
  const manifest = loaded.manifest;
  view.origin = new URL(manifest.service.base_url).origin;
  view.trust = {
    digest: loaded.digest,
    findings: loaded.findings,
    quarantinedToolIds: loaded.quarantinedToolIds,
    disabledToolIds: loaded.disabledToolIds,
    origin: loaded.origin,
    manifestUrl: loaded.manifestUrl,
    baseUrl: manifest.service.base_url,
  };
  const catalog = client.catalog();
  const approval = new Set(manifest.policy?.human_approval_required ?? []);
  view.catalog = {
    tools: catalog.tools.map((tool) => summarizeTool(tool, approval)),
    withheld: catalog.withheld.map((entry) => ({ name: entry.name, id: entry.id, reason: entry.reason, findings: entry.findings })),
    warnings: catalog.warnings,
  };
}

async function fetchManifestBytes(fetch: GuardedFetch, origin: string): Promise<Uint8Array> {
  const response = await fetch(new URL(WELL_KNOWN_PATH, origin).href, { headers: { accept: 'application/ai-capabilities+json, application/json' } });
  return new Uint8Array(await response.arrayBuffer());
}

async function fetchOptionalJson(fetch: GuardedFetch, url: string): Promise<unknown> {
  try {
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    if (!response.ok) return undefined;
    return parseJsonDocument(await response.text());
  } catch {
    // No catalog is the common case; the page says "none".
    return undefined;
  }
}

/** The document as JSON when it parses, otherwise the text itself (shown as text, bad UTF-8 as U+FFFD). */
function parseOrText(raw: Uint8Array): unknown {
  try {
    return parseJsonDocument(raw);
  } catch {
    return new TextDecoder().decode(raw);
  }
}

/** An error as the page shows it: a code and a message, both strings, whatever was thrown. */
export function refusalOf(error: unknown): { code: string; message: string } {
  return {
    code: isRecord(error) && typeof error['code'] === 'string' ? error['code'] : 'ERROR',
    message: isRecord(error) && typeof error['message'] === 'string' ? error['message'] : String(error),
  };
}

/** One row of the page's tool list. */
export function summarizeTool(tool: CatalogTool, approval: ReadonlySet<string>): ToolSummary {
  const definition = tool.definition as { temporal_behavior?: { pattern?: string } };
  return {
    name: tool.name,
    id: tool.id,
    method: tool.method,
    path: tool.path,
    description: tool.description,
    deprecated: tool.deprecated,
    readOnly: tool.method === 'GET' || tool.method === 'HEAD',
    async: definition.temporal_behavior?.pattern === 'async_job',
    needsApproval: approval.has(tool.id),
  };
}

/** A tool's detail panel: its row, definition, input schema, the scopes that grant it and the manifest's policy. */
export function describeTool(tool: CatalogTool, manifest: Manifest): unknown {
  const scopes = Object.entries(manifest.auth?.scopes ?? {})
    .filter(([, ids]) => ids.includes(tool.id))
    .map(([scope]) => scope);
  return {
    summary: summarizeTool(tool, new Set(manifest.policy?.human_approval_required ?? [])),
    definition: tool.definition,
    inputSchema: toolInputSchema(tool.definition),
    scopes,
    policy: manifest.policy ?? {},
  };
}
