import type { Auth, ErrorContract, Manifest, Parameter, Policy, Prompt, Resource, Service, Tool, Versioning } from '../manifest/manifest-v0.js';
import { escapePointerToken } from '../internal/json-pointer.js';
import { parseDocumentText } from './load-openapi-description.js';
import { OpenApiInvalidError } from './openapi-invalid-error.js';
import { errorCodeForStatus } from './transform/responses-object.js';
import { isRecord, type GeneratorWarning } from './transform/transform-context.js';

// Where each parsed overlay came from, so that a mistake found only when it is applied names its file.
const overlayLocations = new WeakMap<ManifestOverlay, string>();

/**
 * The semantic layer of a manifest, kept apart from the OpenAPI description so that the structure
 * can be regenerated freely: entries are keyed by tool (or resource) id, which the generator keeps
 * stable, and applied after every generation.
 *
 * @example
 * ```yaml
 * tools:
 *   createPayment:
 *     intent:
 *       when: The user asks to pay someone
 *       avoid_when: The user only asks about past payments
 *     human_approval_required: true
 *     redact_from_logs: [card_number]
 *     errors:
 *       card_declined: { status: 402, context: Tell the user the card was declined }
 * policy:
 *   max_actions_per_session: 50
 * ```
 */
export interface ManifestOverlay {
  /** Fields of `service` to set (e.g. a better `description`). */
  service?: Partial<Service>;
  /** Per tool id: fields to set or merge. */
  tools?: Record<string, ToolOverlay>;
  /** Per resource id: fields to set. */
  resources?: Record<string, Partial<Omit<Resource, 'id' | 'path'>> & { exclude?: boolean }>;
  /** Prompts to add (an id already present is replaced). */
  prompts?: Prompt[];
  /** Fields of `auth` to set (e.g. `agent_identification`); `scopes` entries are merged. */
  auth?: Partial<Auth>;
  /** `max_actions_per_session` and `policy_url` are set; the id and name lists are added to. */
  policy?: Policy;
  /** Fields of `versioning` to set. */
  versioning?: Partial<Versioning>;
}

/** Overlay entry for one tool. `parameters` and `errors` merge per name, `links` are added; other fields replace. */
export interface ToolOverlay extends Partial<Omit<Tool, 'id' | 'path' | 'method' | 'parameters' | 'errors'>> {
  /** Per parameter name: fields to set (description, example…). */
  parameters?: Record<string, Partial<Parameter>>;
  /** Per error code: fields to set or a new contract. */
  errors?: Record<string, Partial<ErrorContract>>;
  /** Leave the tool out of the manifest. */
  exclude?: boolean;
  /** Add to (true) or remove from (false) `policy.human_approval_required`. */
  human_approval_required?: boolean;
  /** Parameter names to add to `policy.redact_from_logs`. */
  redact_from_logs?: string[];
}

const OVERLAY_KEYS = new Set(['service', 'tools', 'resources', 'prompts', 'auth', 'policy', 'versioning']);

/** Parses overlay text (YAML or JSON); errors name the location, line and offending key. */
export function parseManifestOverlay(text: string, location = 'overlay'): ManifestOverlay {
  const value = parseDocumentText(text, location) ?? {};
  if (!isRecord(value)) throw new OpenApiInvalidError('an overlay must be a mapping with keys such as `tools`, `policy`, `service`', { location });
  for (const key of Object.keys(value)) {
    if (!OVERLAY_KEYS.has(key)) throw new OpenApiInvalidError(`unknown overlay key "${key}"; expected one of ${[...OVERLAY_KEYS].join(', ')}`, { location });
  }
  for (const key of ['tools', 'resources'] as const) {
    const entries = value[key];
    if (entries === undefined) continue;
    if (!isRecord(entries)) throw new OpenApiInvalidError(`\`${key}\` must map ids to entries`, { location });
    for (const [id, entry] of Object.entries(entries)) {
      if (!isRecord(entry)) throw new OpenApiInvalidError(`\`${key}.${id}\` must be a mapping`, { location });
      // The structure comes from the description; an overlay that moved it would drift silently.
      const structural = ['id', 'path', 'method'].find((field) => field in entry);
      if (structural) throw new OpenApiInvalidError(`\`${key}.${id}.${structural}\` cannot be set by an overlay; change the OpenAPI description instead`, { location });
    }
  }
  if (value['prompts'] !== undefined && !Array.isArray(value['prompts'])) throw new OpenApiInvalidError('`prompts` must be a list', { location });
  overlayLocations.set(value as ManifestOverlay, location);
  return value as ManifestOverlay;
}

/**
 * Applies an overlay to a generated manifest in place. Ids the manifest does not have are reported
 * as warnings (a renamed operation must not silently lose its semantics). An error entry that has no
 * `status` and merges into no generated error throws {@link OpenApiInvalidError} naming the overlay
 * file and the entry's JSON Pointer in it.
 */
export function applyManifestOverlay(manifest: Manifest, overlay: ManifestOverlay, warnings: GeneratorWarning[]): void {
  if (overlay.service) Object.assign(manifest.service, overlay.service);
  const approvals = new Set(manifest.policy?.human_approval_required ?? []);
  const redactions = new Set(manifest.policy?.redact_from_logs ?? []);
  const excluded = new Set<string>();
  for (const [id, entry] of Object.entries(overlay.tools ?? {})) {
    const tool = manifest.tools.find((candidate) => candidate.id === id);
    if (!tool) {
      warnings.push({ code: 'overlay.unknown_id', where: `overlay tools.${id}`, message: `the description produces no tool "${id}"; was the operation renamed or removed? The entry was not applied` });
      continue;
    }
    const { parameters, errors, exclude, human_approval_required: approval, redact_from_logs: redact, links, ...fields } = entry;
    if (exclude) excluded.add(id);
    Object.assign(tool, fields);
    // Links add to those generated from the description's response links (spec section 7.20).
    if (links) tool.links = [...(tool.links ?? []), ...links];
    if (parameters) {
      tool.parameters ??= {};
      for (const [name, parameter] of Object.entries(parameters)) {
        const existing = tool.parameters[name];
        if (existing === undefined && parameter.type === undefined) {
          warnings.push({
            code: 'overlay.unknown_parameter',
            where: `overlay tools.${id}.parameters.${name}`,
            message: `tool "${id}" has no parameter "${name}" and the entry has no \`type\`; it was not applied`,
          });
          continue;
        }
        tool.parameters[name] = { ...existing, ...parameter } as Parameter;
      }
    }
    if (errors) {
      tool.errors ??= {};
      for (const [code, contract] of Object.entries(errors)) {
        const merged = { ...tool.errors[code], ...contract } as ErrorContract;
        if (merged.status === undefined) throw overlayErrorWithoutStatus(overlay, id, code, tool);
        tool.errors[code] = merged;
      }
    }
    if (approval === true) approvals.add(id);
    if (approval === false) approvals.delete(id);
    for (const name of redact ?? []) redactions.add(name);
  }
  manifest.tools = manifest.tools.filter((tool) => !excluded.has(tool.id));
  for (const id of excluded) approvals.delete(id);
  for (const [id, entry] of Object.entries(overlay.resources ?? {})) {
    const resource = manifest.resources?.find((candidate) => candidate.id === id);
    if (!resource) {
      warnings.push({ code: 'overlay.unknown_id', where: `overlay resources.${id}`, message: `the description produces no resource "${id}"; the entry was not applied` });
      continue;
    }
    const { exclude, links, ...fields } = entry;
    if (exclude) excluded.add(id);
    Object.assign(resource, fields);
    if (links) resource.links = [...(resource.links ?? []), ...links];
  }
  if (manifest.resources) manifest.resources = manifest.resources.filter((resource) => !excluded.has(resource.id));
  if (overlay.prompts) {
    const prompts = (manifest.prompts ?? []).filter((prompt) => !overlay.prompts!.some((added) => added.id === prompt.id));
    manifest.prompts = [...prompts, ...overlay.prompts];
  }
  if (overlay.auth) {
    const { scopes, ...fields } = overlay.auth;
    manifest.auth = { type: 'none', ...manifest.auth, ...fields };
    if (scopes) manifest.auth.scopes = { ...manifest.auth.scopes, ...scopes };
  }
  if (manifest.auth?.scopes) {
    for (const [scope, ids] of Object.entries(manifest.auth.scopes)) {
      const kept = ids.filter((id) => !excluded.has(id));
      if (kept.length > 0) manifest.auth.scopes[scope] = kept;
      else delete manifest.auth.scopes[scope];
    }
  }
  const policy: Policy = { ...manifest.policy };
  for (const id of overlay.policy?.human_approval_required ?? []) approvals.add(id);
  for (const name of overlay.policy?.redact_from_logs ?? []) redactions.add(name);
  if (overlay.policy?.max_actions_per_session !== undefined) policy.max_actions_per_session = overlay.policy.max_actions_per_session;
  if (overlay.policy?.policy_url !== undefined) policy.policy_url = overlay.policy.policy_url;
  if (approvals.size > 0) policy.human_approval_required = [...approvals];
  else delete policy.human_approval_required;
  if (redactions.size > 0) policy.redact_from_logs = [...redactions];
  if (Object.keys(policy).length > 0) manifest.policy = policy;
  else delete manifest.policy;
  if (overlay.versioning) manifest.versioning = { ...manifest.versioning, ...overlay.versioning } as Versioning;
}

function overlayErrorWithoutStatus(overlay: ManifestOverlay, id: string, code: string, tool: Tool): OpenApiInvalidError {
  const generated = Object.keys(tool.errors ?? {});
  const listed = generated.length > 0 ? `its generated errors are ${generated.map((name) => `"${name}"`).join(', ')}` : 'it has no generated errors';
  // Keying by the status is the usual slip: error codes are names, derived from the reason phrase.
  const hint = /^[45]\d\d$/.test(code)
    ? `; error codes are names, not statuses: the generated name for ${code} is "${errorCodeForStatus(Number(code))}", so key the entry by it or add \`status: ${code}\``
    : '; add a `status` or use one of those names';
  return new OpenApiInvalidError(
    `/tools/${escapePointerToken(id)}/errors/${escapePointerToken(code)}: the error "${code}" of tool "${id}" has no status and merges into no generated error (${listed})${hint}`,
    { location: overlayLocations.get(overlay) ?? 'overlay' },
  );
}
