import { escapePointerToken, fromPointer } from '../internal/json-pointer.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import { createDefinitionGraph } from '../manifest/reachable-definitions.js';
import { findSecretValues } from '../manifest/find-secret-values.js';
import { isRecord, type GeneratorWarning } from './transform/transform-context.js';

// Sample keywords: the value only illustrates, so it can go without changing what is accepted.
const SAMPLE_KEYWORDS = new Set(['example', 'examples', 'default']);
/** What replaces a secret-looking value that is not a mere sample (an enum member, a text). */
export const SECRET_PLACEHOLDER = '<redacted>';

/**
 * Removes the values `createManifestHandler` would refuse as secrets (`findSecretValues`): an
 * `example`, `examples` or `default` that holds one is dropped, any other such string (an enum
 * member, a description) becomes {@link SECRET_PLACEHOLDER}. Descriptions copy real-looking keys,
 * tokens and private keys from their examples; a manifest is public. One warning names the tools
 * concerned (through the shared definitions they reach, too).
 */
export function dropSecretSamples(manifest: Manifest, warnings: GeneratorWarning[]): void {
  const findings = findSecretValues(manifest);
  if (findings.length === 0) return;
  const touchedTools = new Set<string>();
  const touchedDefinitions = new Set<string>();
  const document = manifest as unknown as Record<string, unknown>;
  for (const finding of findings) {
    const tokens = fromPointer(finding.pointer);
    const sample = tokens.findIndex((token, index) => SAMPLE_KEYWORDS.has(token) && isSchemaOrParameter(document, tokens.slice(0, index)));
    const [owner, key] = sample === -1 ? locate(document, tokens.slice(0, -1), tokens.at(-1)) : locate(document, tokens.slice(0, sample), tokens[sample]);
    if (owner === undefined || key === undefined) continue;
    if (sample === -1) (owner as Record<string, unknown>)[key] = SECRET_PLACEHOLDER;
    else delete (owner as Record<string, unknown>)[key];
    const [list, index] = tokens;
    if (list === 'definitions' && index !== undefined) touchedDefinitions.add(index);
    else if ((list === 'tools' || list === 'resources') && index !== undefined) touchedTools.add(describeEntry(manifest, list, Number(index)));
  }
  if (touchedDefinitions.size > 0) {
    const graph = createDefinitionGraph(manifest.definitions);
    for (const entry of [...manifest.tools, ...(manifest.resources ?? [])]) {
      if (graph.reachableFrom(entry).some((name) => touchedDefinitions.has(name))) touchedTools.add(`${'method' in entry && entry.method ? entry.method : 'GET'} ${entry.path}`);
    }
  }
  const operations = [...touchedTools].sort();
  const listed = operations.length > 20 ? `${operations.slice(0, 20).join(', ')} and ${operations.length - 20} more` : operations.join(', ');
  const definitions =
    touchedDefinitions.size > 0
      ? ` (through the shared definitions ${[...touchedDefinitions]
          .sort()
          .slice(0, 10)
          .map((name) => `"${name}"`)
          .join(', ')}${touchedDefinitions.size > 10 ? ', …' : ''})`
      : '';
  warnings.push({
    code: 'example.secret_dropped',
    where: listed || 'manifest',
    message: `${findings.length} secret-looking sample values (tokens, keys, passwords copied from the description's examples) were left out of the manifest, which is public${definitions}; operations concerned: ${listed || 'none'}`,
  });
}

/** The object holding `tokens`' last step, and that step, when the path still exists. @internal */
export function locate(document: Record<string, unknown>, path: readonly string[], key: string | undefined): [object | undefined, string | undefined] {
  let node: unknown = document;
  for (const token of path) {
    if (typeof node !== 'object' || node === null) return [undefined, undefined];
    node = (node as Record<string, unknown>)[token];
  }
  if (typeof node !== 'object' || node === null || key === undefined || !(key in node)) return [undefined, undefined];
  return [node, key];
}

/** True when the value at `path` is a schema or a parameter, where `example`/`default` are sample keywords rather than member names. */
function isSchemaOrParameter(document: Record<string, unknown>, path: readonly string[]): boolean {
  const parent = path.at(-1);
  // Inside `properties`, `parameters` or `definitions` a member may be *named* "default".
  if (parent === 'properties' || parent === 'parameters' || parent === 'definitions' || parent === 'patternProperties') return false;
  let node: unknown = document;
  for (const token of path) node = isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[token] : undefined;
  return isRecord(node);
}

/** `METHOD /path` of a tool or resource, by its list and position. @internal */
export function describeEntry(manifest: Manifest, list: 'tools' | 'resources', index: number): string {
  const entry = list === 'tools' ? manifest.tools[index] : manifest.resources?.[index];
  if (entry === undefined) return `${list}/${escapePointerToken(index)}`;
  return `${'method' in entry && entry.method ? entry.method : 'GET'} ${entry.path}`;
}
