import { isRecord } from '../internal/is-record.js';
import { escapePointerToken } from '../internal/json-pointer.js';
import { canonicalJson } from './digest-manifest.js';
import type { JsonSchema, Manifest, Parameter, Prompt, Resource, Tool } from './manifest-v0.js';
import { createDefinitionGraph, type DefinitionGraph } from './reachable-definitions.js';
import { compareSemver } from './compare-semver.js';

/** What part of the manifest a change concerns. */
export type ManifestChangeKind = 'tool' | 'resource' | 'prompt' | 'service' | 'auth' | 'policy' | 'versioning';

/** Whether the thing appeared, disappeared or changed. */
export type ManifestChangeType = 'added' | 'removed' | 'changed';

/**
 * How a change affects consumers:
 * - `breaking`: calls that worked may now fail (removed tool, new required parameter, narrowed type or enum, moved path or method);
 * - `trust-sensitive`: what an agent is told or allowed changed (description, intent, prompt text, scopes, policy, auth endpoints); re-approval is due, especially when `weakened`;
 * - `non-breaking`: additions and clarifications.
 */
export type ChangeClassification = 'breaking' | 'non-breaking' | 'trust-sensitive';

/** One difference between two manifests. */
export interface ManifestChange {
  /** What part of the manifest it concerns. */
  kind: ManifestChangeKind;
  /** Id of the tool, resource or prompt (or the scope name for `auth` scope changes). */
  id?: string;
  /** Added, removed or changed. */
  change: ManifestChangeType;
  /** JSON Pointer into the old manifest; absent for additions. */
  oldPointer?: string;
  /** JSON Pointer into the new manifest; absent for removals. */
  newPointer?: string;
  /** Effect on consumers. */
  classification: ChangeClassification;
  /** True when a safety guarantee got weaker: approval removed, redaction dropped, broader scope, higher budget. */
  weakened?: boolean;
  /** One sentence for humans. */
  message: string;
}

/** The result of {@link diffManifests}. */
export interface ManifestDiff {
  /** Every change, breaking first, then trust-sensitive, then non-breaking. */
  changes: ManifestChange[];
  /** True when any change is breaking. */
  breaking: boolean;
  /** True when any change is trust-sensitive. */
  trustSensitive: boolean;
  /** The version bump the changes call for. */
  bump: 'major' | 'minor' | 'patch' | 'none';
  /**
  `versioning.current` the new manifest should carry: the old version bumped by {@link bump}
  (for 0.y.z, a breaking change bumps the minor and anything else the patch, as semver allows).
  Undefined when the old manifest has no semver `versioning.current`.
  */
  suggestedVersion: string | undefined;
}

type Entry = Tool | Resource | Prompt;

/**
 * Compares two manifests and classifies every difference. Pure: no I/O, so the client can run it on
 * a manifest that changed under a pinned approval (rug-pull check) as well as the CLI on two files.
 * A changed shared definition (spec v0.2) is reported as a change of every tool, resource and prompt
 * that reaches it.
 */
export function diffManifests(oldManifest: Manifest, newManifest: Manifest): ManifestDiff {
  const changes: ManifestChange[] = [];
  const shared: SharedDefinitions = {
    before: oldManifest.definitions ?? {},
    after: newManifest.definitions ?? {},
    oldGraph: createDefinitionGraph(oldManifest.definitions),
    newGraph: createDefinitionGraph(newManifest.definitions),
  };
  diffEntries('tool', oldManifest.tools, newManifest.tools, shared, changes);
  diffEntries('resource', oldManifest.resources ?? [], newManifest.resources ?? [], shared, changes);
  diffEntries('prompt', oldManifest.prompts ?? [], newManifest.prompts ?? [], shared, changes);
  diffService(oldManifest, newManifest, changes);
  diffAuth(oldManifest, newManifest, changes);
  diffPolicy(oldManifest, newManifest, changes);
  diffVersioning(oldManifest, newManifest, changes);
  const order: Record<ChangeClassification, number> = { breaking: 0, 'trust-sensitive': 1, 'non-breaking': 2 };
  changes.sort((a, b) => order[a.classification] - order[b.classification]);
  const breaking = changes.some((change) => change.classification === 'breaking');
  const trustSensitive = changes.some((change) => change.classification === 'trust-sensitive');
  const additions = changes.some((change) => change.change === 'added' && change.kind !== 'versioning');
  const bump = breaking ? 'major' : trustSensitive || additions ? 'minor' : changes.some((change) => change.kind !== 'versioning') ? 'patch' : 'none';
  return { changes, breaking, trustSensitive, bump, suggestedVersion: bumpVersion(oldManifest.versioning?.current, bump) };
}

function bumpVersion(current: string | undefined, bump: ManifestDiff['bump']): string | undefined {
  const match = current === undefined ? null : /^(\d+)\.(\d+)\.(\d+)/.exec(current);
  if (!match) return undefined;
  let [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (bump === 'none') return `${major}.${minor}.${patch}`;
  // Semver §4: anything may change in 0.y.z; the usual convention shifts each bump one place right.
  const effective = major === 0 ? (bump === 'major' ? 'minor' : 'patch') : bump;
  if (effective === 'major') [major, minor, patch] = [major + 1, 0, 0];
  else if (effective === 'minor') [minor, patch] = [minor + 1, 0];
  else patch += 1;
  return `${major}.${minor}.${patch}`;
}

const LIST_OF: Record<'tool' | 'resource' | 'prompt', string> = { tool: 'tools', resource: 'resources', prompt: 'prompts' };

/** The shared definitions of both manifests, indexed for reachability. */
interface SharedDefinitions {
  before: Readonly<Record<string, JsonSchema>>;
  after: Readonly<Record<string, JsonSchema>>;
  oldGraph: DefinitionGraph;
  newGraph: DefinitionGraph;
}

function diffEntries(kind: 'tool' | 'resource' | 'prompt', oldList: readonly Entry[], newList: readonly Entry[], shared: SharedDefinitions, changes: ManifestChange[]): void {
  const list = LIST_OF[kind];
  const oldById = new Map(oldList.map((entry, index) => [entry.id, { entry, pointer: `/${list}/${index}` }]));
  const newById = new Map(newList.map((entry, index) => [entry.id, { entry, pointer: `/${list}/${index}` }]));
  for (const [id, old] of oldById) {
    const next = newById.get(id);
    if (!next) {
      changes.push({ kind, id, change: 'removed', oldPointer: old.pointer, classification: 'breaking', message: `${kind} "${id}" was removed` });
      continue;
    }
    const before = withDefaults(kind, old.entry);
    const after = withDefaults(kind, next.entry);
    if (canonicalJson(before) !== canonicalJson(after)) diffEntry(kind, id, before, after, old.pointer, next.pointer, changes);
    diffReachedDefinitions(kind, id, old.entry, next.entry, shared, changes);
  }
  for (const [id, next] of newById) {
    if (!oldById.has(id)) changes.push({ kind, id, change: 'added', newPointer: next.pointer, classification: 'non-breaking', message: `${kind} "${id}" was added` });
  }
}

/**
 * The entry with the defaults the spec implies made explicit, so that spelling a default out is not
 * a change: a resource's method is GET, and a parameter without `in` goes to the path when the path
 * has its placeholder, to the query for GET/HEAD/DELETE, and to the body otherwise.
 */
function withDefaults(kind: 'tool' | 'resource' | 'prompt', entry: Entry): Record<string, unknown> {
  const record = { ...(entry as unknown as Record<string, unknown>) };
  if (kind === 'resource') record['method'] ??= 'GET';
  if (kind === 'prompt' || typeof record['parameters'] !== 'object' || record['parameters'] === null) return record;
  const path = typeof record['path'] === 'string' ? record['path'] : '';
  const method = typeof record['method'] === 'string' ? record['method'] : 'GET';
  const parameters: Record<string, Parameter> = {};
  for (const [name, parameter] of Object.entries(record['parameters'] as Record<string, Parameter>)) {
    const location = parameter.in ?? (path.includes(`{${name}}`) ? 'path' : method === 'GET' || method === 'HEAD' || method === 'DELETE' ? 'query' : 'body');
    parameters[name] = { ...parameter, in: location, required: parameter.required ?? false };
  }
  record['parameters'] = parameters;
  return record;
}

// Fields whose text is read by the model: any change is a chance to inject instructions.
const MODEL_VISIBLE = new Set(['description', 'intent', 'template', 'example_trigger']);
// Fields whose change makes existing calls go elsewhere or be built differently.
const CALL_SHAPE = new Set(['path', 'method', 'request_content_type', 'body_parameter', 'temporal_behavior']);

function diffEntry(kind: ManifestChangeKind, id: string, oldEntry: Record<string, unknown>, newEntry: Record<string, unknown>, oldBase: string, newBase: string, changes: ManifestChange[]): void {
  const fields = new Set([...Object.keys(oldEntry), ...Object.keys(newEntry)]);
  for (const field of fields) {
    const before = oldEntry[field];
    const after = newEntry[field];
    if (canonicalJson(before ?? null) === canonicalJson(after ?? null)) continue;
    const base = { kind, id, ...(before === undefined ? {} : { oldPointer: `${oldBase}/${field}` }), ...(after === undefined ? {} : { newPointer: `${newBase}/${field}` }) };
    const change: ManifestChangeType = before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
    if (field === 'parameters') {
      diffParameters(kind, id, (before ?? {}) as Record<string, Parameter>, (after ?? {}) as Record<string, Parameter>, `${oldBase}/parameters`, `${newBase}/parameters`, changes);
    } else if (MODEL_VISIBLE.has(field)) {
      changes.push({ ...base, change, classification: 'trust-sensitive', message: `${kind} "${id}": ${field} ${change}; the text the model reads is different, review it before re-approving` });
    } else if (CALL_SHAPE.has(field)) {
      changes.push({ ...base, change, classification: 'breaking', message: `${kind} "${id}": ${field} ${change === 'changed' ? `changed from ${short(before)} to ${short(after)}` : change}` });
    } else if (field === 'returns') {
      // Only two declared types that differ break a caller; a type that appears or disappears is more or less information.
      const oldType = (before as { type?: unknown } | undefined)?.type;
      const newType = (after as { type?: unknown } | undefined)?.type;
      const typeChanged = oldType !== undefined && newType !== undefined && oldType !== newType;
      changes.push({
        ...base,
        change,
        classification: typeChanged ? 'breaking' : 'non-breaking',
        message: `${kind} "${id}": returns ${typeChanged ? `type changed from ${short(oldType)} to ${short(newType)}` : change}`,
      });
    } else if (field === 'idempotent' && before === true) {
      changes.push({ ...base, change, classification: 'trust-sensitive', weakened: true, message: `${kind} "${id}" is no longer declared idempotent; clients must stop retrying it` });
    } else {
      changes.push({ ...base, change, classification: 'non-breaking', message: `${kind} "${id}": ${field} ${change}` });
    }
  }
}

/**
 * Reports each shared definition the entry reaches (before or after) whose content differs. One the
 * parameters reach is what the model fills in: narrowed it breaks calls, otherwise its text changed
 * (trust-sensitive). One only the returns reach breaks a caller only when its type changed.
 */
function diffReachedDefinitions(kind: ManifestChangeKind, id: string, oldEntry: Entry, newEntry: Entry, shared: SharedDefinitions, changes: ManifestChange[]): void {
  const reached = new Set([...shared.oldGraph.reachableFrom(oldEntry), ...shared.newGraph.reachableFrom(newEntry)]);
  if (reached.size === 0) return;
  // Wrapped, so the walk reads the map as parameters by name (a parameter may be called `default`).
  const parameters = (entry: Entry): unknown => ({ parameters: (entry as { parameters?: unknown }).parameters });
  const fromParameters = new Set([...shared.oldGraph.reachableFrom(parameters(oldEntry)), ...shared.newGraph.reachableFrom(parameters(newEntry))]);
  for (const name of [...reached].sort()) {
    const before = Object.hasOwn(shared.before, name) ? shared.before[name] : undefined;
    const after = Object.hasOwn(shared.after, name) ? shared.after[name] : undefined;
    if (canonicalJson(before ?? null) === canonicalJson(after ?? null)) continue;
    const pointer = `/definitions/${escapePointerToken(name)}`;
    const change: ManifestChangeType = before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
    const base = { kind, id, change, ...(before === undefined ? {} : { oldPointer: pointer }), ...(after === undefined ? {} : { newPointer: pointer }) };
    if (fromParameters.has(name)) {
      const reasons = after === undefined ? ['was removed'] : narrowings(asRecord(before), asRecord(after));
      changes.push(
        reasons.length > 0
          ? { ...base, classification: 'breaking', message: `${kind} "${id}": shared definition "${name}" of its parameters ${reasons.join('; ')}` }
          : {
              ...base,
              classification: 'trust-sensitive',
              message: `${kind} "${id}": shared definition "${name}" of its parameters ${change}; what the model reads and sends is different, review it before re-approving`,
            },
      );
    } else {
      const oldType = asRecord(before)['type'];
      const newType = asRecord(after)['type'];
      const typeChanged = oldType !== undefined && newType !== undefined && canonicalJson(oldType) !== canonicalJson(newType);
      changes.push({
        ...base,
        classification: typeChanged ? 'breaking' : 'non-breaking',
        message: `${kind} "${id}": shared definition "${name}" of its returns ${typeChanged ? `type changed from ${short(oldType)} to ${short(newType)}` : change}`,
      });
    }
  }
}

function diffParameters(kind: ManifestChangeKind, id: string, before: Record<string, Parameter>, after: Record<string, Parameter>, oldBase: string, newBase: string, changes: ManifestChange[]): void {
  for (const [name, parameter] of Object.entries(before)) {
    const oldPointer = `${oldBase}/${escapePointerToken(name)}`;
    const newPointer = `${newBase}/${escapePointerToken(name)}`;
    const next = after[name];
    if (next === undefined) {
      changes.push({ kind, id, change: 'removed', oldPointer, classification: 'breaking', message: `${kind} "${id}": parameter "${name}" was removed; calls that send it may be rejected` });
      continue;
    }
    if (canonicalJson(parameter) === canonicalJson(next)) continue;
    const base = { kind, id, change: 'changed' as const, oldPointer, newPointer };
    const reasons: string[] = [];
    if (!parameter.required && next.required) reasons.push('became required');
    if ((parameter.in ?? '') !== (next.in ?? '')) reasons.push(`moved from ${parameter.in ?? 'the default location'} to ${next.in ?? 'the default location'}`);
    if (!parameter.enum && next.enum) reasons.push('is now restricted to an enum');
    const removedValues = parameter.enum && next.enum ? parameter.enum.filter((value) => !next.enum!.some((other) => canonicalJson(other) === canonicalJson(value))) : [];
    if (removedValues.length > 0) reasons.push(`enum no longer allows ${removedValues.map((value) => short(JSON.stringify(value))).join(', ')}`);
    reasons.push(...narrowings({ type: parameter.type, ...asRecord(parameter.json_schema) }, { type: next.type, ...asRecord(next.json_schema) }));
    if (reasons.length > 0) {
      changes.push({ ...base, classification: 'breaking', message: `${kind} "${id}": parameter "${name}" ${reasons.join('; ')}` });
    } else if ((parameter.description ?? '') !== (next.description ?? '')) {
      changes.push({ ...base, classification: 'trust-sensitive', message: `${kind} "${id}": parameter "${name}" description changed; the text the model reads is different` });
    } else {
      changes.push({ ...base, classification: 'non-breaking', message: `${kind} "${id}": parameter "${name}" changed (widened or clarified)` });
    }
  }
  for (const [name, parameter] of Object.entries(after)) {
    if (before[name] !== undefined) continue;
    const newPointer = `${newBase}/${escapePointerToken(name)}`;
    if (parameter.required) changes.push({ kind, id, change: 'added', newPointer, classification: 'breaking', message: `${kind} "${id}": new required parameter "${name}"; existing calls lack it` });
    else changes.push({ kind, id, change: 'added', newPointer, classification: 'non-breaking', message: `${kind} "${id}": new optional parameter "${name}"` });
  }
}

/** Top-level constraints of a JSON Schema that got stricter (the common cases, not a full subsumption check). */
function narrowings(oldSchema: Record<string, unknown>, newSchema: Record<string, unknown>): string[] {
  const found: string[] = [];
  for (const keyword of ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']) {
    const [a, b] = [oldSchema[keyword], newSchema[keyword]];
    if (typeof b === 'number' && (typeof a !== 'number' || b > a)) found.push(`${keyword} raised to ${b}`);
  }
  for (const keyword of ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']) {
    const [a, b] = [oldSchema[keyword], newSchema[keyword]];
    if (typeof b === 'number' && (typeof a !== 'number' || b < a)) found.push(`${keyword} lowered to ${b}`);
  }
  if (newSchema['pattern'] !== undefined && newSchema['pattern'] !== oldSchema['pattern']) found.push('pattern added or changed');
  const types = (schema: Record<string, unknown>): string[] => (Array.isArray(schema['type']) ? schema['type'].map(String) : [String(schema['type'])]);
  const lostTypes = types(oldSchema).filter((type) => !types(newSchema).includes(type) && !(type === 'integer' && types(newSchema).includes('number')));
  if (lostTypes.length > 0) found.push(`schema no longer accepts ${lostTypes.join(', ')}`);
  const oldEnum = oldSchema['enum'];
  const newEnum = newSchema['enum'];
  if (Array.isArray(newEnum) && (!Array.isArray(oldEnum) || oldEnum.some((value) => !newEnum.some((other) => canonicalJson(other) === canonicalJson(value))))) found.push('schema enum narrowed');
  const oldRequired = new Set(Array.isArray(oldSchema['required']) ? oldSchema['required'] : []);
  const newlyRequired = (Array.isArray(newSchema['required']) ? newSchema['required'] : []).filter((name) => !oldRequired.has(name));
  if (newlyRequired.length > 0) found.push(`schema now requires ${newlyRequired.map((name) => `"${String(name)}"`).join(', ')}`);
  if (newSchema['additionalProperties'] === false && oldSchema['additionalProperties'] !== false) found.push('additional properties no longer allowed');
  return found;
}

function diffService(oldManifest: Manifest, newManifest: Manifest, changes: ManifestChange[]): void {
  const before = oldManifest.service;
  const after = newManifest.service;
  if (before.base_url !== after.base_url) {
    const originMoved = originOf(before.base_url) !== originOf(after.base_url);
    changes.push({
      kind: 'service',
      change: 'changed',
      oldPointer: '/service/base_url',
      newPointer: '/service/base_url',
      classification: 'breaking',
      message: `base_url changed from ${before.base_url} to ${after.base_url}; every tool now calls a different URL`,
    });
    if (originMoved) {
      changes.push({
        kind: 'service',
        change: 'changed',
        oldPointer: '/service/base_url',
        newPointer: '/service/base_url',
        classification: 'trust-sensitive',
        weakened: true,
        message: `base_url moved to another origin (${originOf(after.base_url)}); credentials would now be sent there`,
      });
    }
  }
  for (const field of ['name', 'description'] as const) {
    if ((before[field] ?? '') !== (after[field] ?? ''))
      changes.push({
        kind: 'service',
        ...pointers(`/service/${field}`, before[field], after[field]),
        classification: 'trust-sensitive',
        message: `service ${field} ${changeOf(before[field], after[field])}; the model reads it`,
      });
  }
  for (const field of ['documentation_url', 'contact'] as const) {
    if ((before[field] ?? '') !== (after[field] ?? ''))
      changes.push({
        kind: 'service',
        ...pointers(`/service/${field}`, before[field], after[field]),
        classification: 'non-breaking',
        message: `service ${field} ${changeOf(before[field], after[field])}`,
      });
  }
}

function diffAuth(oldManifest: Manifest, newManifest: Manifest, changes: ManifestChange[]): void {
  const before = oldManifest.auth;
  const after = newManifest.auth;
  if ((before?.type ?? 'none') !== (after?.type ?? 'none')) {
    changes.push({
      kind: 'auth',
      ...pointers('/auth/type', before?.type, after?.type),
      classification: 'breaking',
      message: `auth type changed from ${before?.type ?? 'none'} to ${after?.type ?? 'none'}`,
    });
  }
  if ((before?.provider_discovery ?? '') !== (after?.provider_discovery ?? '')) {
    changes.push({
      kind: 'auth',
      ...pointers('/auth/provider_discovery', before?.provider_discovery, after?.provider_discovery),
      classification: 'trust-sensitive',
      weakened: before?.provider_discovery !== undefined,
      message: `auth provider_discovery ${changeOf(before?.provider_discovery, after?.provider_discovery)}; tokens would be obtained from ${after?.provider_discovery ?? 'nowhere declared'}`,
    });
  }
  if (canonicalJson(before?.api_key ?? null) !== canonicalJson(after?.api_key ?? null)) {
    changes.push({ kind: 'auth', ...pointers('/auth/api_key', before?.api_key, after?.api_key), classification: 'breaking', message: 'where the API key travels changed' });
  }
  const required = (manifest: Manifest): boolean => manifest.auth?.agent_identification?.requires_agent_id === true;
  if (required(oldManifest) !== required(newManifest)) {
    const nowRequired = required(newManifest);
    changes.push({
      kind: 'auth',
      change: 'changed',
      oldPointer: '/auth/agent_identification',
      newPointer: '/auth/agent_identification',
      classification: nowRequired ? 'breaking' : 'trust-sensitive',
      ...(nowRequired ? {} : { weakened: true }),
      message: nowRequired ? 'calls now require an agent id' : 'calls no longer require an agent id',
    });
  }
  // Scopes are compared per tool: which scopes unlock it before and after.
  const scopesOf = (manifest: Manifest): Map<string, Set<string>> => {
    const byId = new Map<string, Set<string>>();
    for (const [scope, ids] of Object.entries(manifest.auth?.scopes ?? {})) for (const id of ids) (byId.get(id) ?? byId.set(id, new Set()).get(id)!).add(scope);
    return byId;
  };
  const oldScopes = scopesOf(oldManifest);
  const newScopes = scopesOf(newManifest);
  const newIds = new Set([...newManifest.tools, ...(newManifest.resources ?? []), ...(newManifest.prompts ?? [])].map((entry) => entry.id));
  const oldIds = new Set([...oldManifest.tools, ...(oldManifest.resources ?? []), ...(oldManifest.prompts ?? [])].map((entry) => entry.id));
  for (const id of new Set([...oldScopes.keys(), ...newScopes.keys()])) {
    if (!newIds.has(id) || !oldIds.has(id)) continue; // added and removed entries are reported as such
    const before = oldScopes.get(id) ?? new Set<string>();
    const after = newScopes.get(id) ?? new Set<string>();
    const gained = [...after].filter((scope) => !before.has(scope));
    const lost = [...before].filter((scope) => !after.has(scope));
    // An entry no scope names is open to every caller: its first scope closes it to callers without that scope.
    if (gained.length > 0 && before.size === 0) {
      const message = `"${id}" now needs scope ${list(gained)}; callers without it lose access`;
      changes.push({ kind: 'auth', id, change: 'changed', oldPointer: '/auth/scopes', newPointer: '/auth/scopes', classification: 'breaking', message });
    } else if (gained.length > 0) {
      const message = `"${id}" is now also unlocked by scope ${list(gained)} (was ${list([...before])}): a broader grant reaches it`;
      changes.push({ kind: 'auth', id, change: 'changed', oldPointer: '/auth/scopes', newPointer: '/auth/scopes', classification: 'trust-sensitive', weakened: true, message });
    }
    if (lost.length > 0) {
      changes.push({
        kind: 'auth',
        id,
        change: 'changed',
        oldPointer: '/auth/scopes',
        newPointer: '/auth/scopes',
        classification: after.size === 0 ? 'trust-sensitive' : 'breaking',
        ...(after.size === 0 ? { weakened: true } : {}),
        message: after.size === 0 ? `"${id}" no longer needs any scope (was ${list([...before])})` : `"${id}" is no longer unlocked by scope ${list(lost)}; holders of only that scope lose access`,
      });
    }
  }
}

function diffPolicy(oldManifest: Manifest, newManifest: Manifest, changes: ManifestChange[]): void {
  const before = oldManifest.policy ?? {};
  const after = newManifest.policy ?? {};
  const newIds = new Set(newManifest.tools.map((tool) => tool.id));
  const oldApproval = new Set(before.human_approval_required ?? []);
  const newApproval = new Set(after.human_approval_required ?? []);
  for (const id of oldApproval) {
    if (!newApproval.has(id) && newIds.has(id))
      changes.push({
        kind: 'policy',
        id,
        change: 'removed',
        oldPointer: '/policy/human_approval_required',
        classification: 'trust-sensitive',
        weakened: true,
        message: `"${id}" no longer requires human approval`,
      });
  }
  for (const id of newApproval) {
    if (!oldApproval.has(id))
      changes.push({ kind: 'policy', id, change: 'added', newPointer: '/policy/human_approval_required', classification: 'non-breaking', message: `"${id}" now requires human approval` });
  }
  const oldRedact = new Set(before.redact_from_logs ?? []);
  const newRedact = new Set(after.redact_from_logs ?? []);
  for (const name of oldRedact) {
    if (!newRedact.has(name))
      changes.push({
        kind: 'policy',
        id: name,
        change: 'removed',
        oldPointer: '/policy/redact_from_logs',
        classification: 'trust-sensitive',
        weakened: true,
        message: `"${name}" is no longer redacted from logs`,
      });
  }
  for (const name of newRedact) {
    if (!oldRedact.has(name))
      changes.push({ kind: 'policy', id: name, change: 'added', newPointer: '/policy/redact_from_logs', classification: 'non-breaking', message: `"${name}" is now redacted from logs` });
  }
  const oldBudget = before.max_actions_per_session;
  const newBudget = after.max_actions_per_session;
  if (oldBudget !== newBudget) {
    const weaker = newBudget === undefined || (oldBudget !== undefined && newBudget > oldBudget);
    changes.push({
      kind: 'policy',
      ...pointers('/policy/max_actions_per_session', oldBudget, newBudget),
      classification: weaker ? 'trust-sensitive' : 'non-breaking',
      ...(weaker ? { weakened: true } : {}),
      message: `max_actions_per_session ${changeOf(oldBudget, newBudget)}`,
    });
  }
  if ((before.policy_url ?? '') !== (after.policy_url ?? '')) {
    changes.push({
      kind: 'policy',
      ...pointers('/policy/policy_url', before.policy_url, after.policy_url),
      classification: 'trust-sensitive',
      message: `policy_url ${changeOf(before.policy_url, after.policy_url)}`,
    });
  }
}

function diffVersioning(oldManifest: Manifest, newManifest: Manifest, changes: ManifestChange[]): void {
  const before = oldManifest.versioning;
  const after = newManifest.versioning;
  if ((before?.current ?? '') !== (after?.current ?? '')) {
    changes.push({
      kind: 'versioning',
      ...pointers('/versioning/current', before?.current, after?.current),
      classification: 'non-breaking',
      message: `versioning.current ${changeOf(before?.current, after?.current)}`,
    });
  }
  const oldMinimum = before?.min_supported;
  const newMinimum = after?.min_supported;
  if (oldMinimum !== newMinimum && newMinimum !== undefined) {
    const raised = oldMinimum === undefined || (compareSemver(newMinimum, oldMinimum) ?? 0) > 0;
    changes.push({
      kind: 'versioning',
      ...pointers('/versioning/min_supported', oldMinimum, newMinimum),
      classification: raised ? 'breaking' : 'non-breaking',
      message: `versioning.min_supported ${changeOf(oldMinimum, newMinimum)}${raised ? '; clients on older versions are no longer supported' : ''}`,
    });
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function pointers(pointer: string, before: unknown, after: unknown): Pick<ManifestChange, 'change' | 'oldPointer' | 'newPointer'> {
  if (before === undefined) return { change: 'added', newPointer: pointer };
  if (after === undefined) return { change: 'removed', oldPointer: pointer };
  return { change: 'changed', oldPointer: pointer, newPointer: pointer };
}

function changeOf(before: unknown, after: unknown): string {
  if (before === undefined) return `added (${short(after)})`;
  if (after === undefined) return `removed (was ${short(before)})`;
  return `changed from ${short(before)} to ${short(after)}`;
}

function short(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'nothing');
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

function list(names: string[]): string {
  return names.map((name) => `"${name}"`).join(', ');
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
