import { readFile } from 'node:fs/promises';
import type { Manifest } from '../index.js';
import { parseDocumentText } from '../openapi/load-openapi-description.js';
import type { ManifestOverlay } from '../openapi/index.js';
import { loadYaml } from '../openapi/load-openapi-dependency.js';

/** Which operations of a big API `aicap generate` keeps (`--include-tag`, `--include-path`, `--include-operation`). */
export interface GenerateSubset {
  /** OpenAPI tags (case-insensitive). */
  tags: readonly string[];
  /** Path prefixes (`/apis/apps/v1`). */
  paths: readonly string[];
  /** `operationId`s or generated tool ids. */
  operations: readonly string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/**
 * The ids of the generated tools the subset leaves out: a tool is kept when any given filter matches
 * it. Tags and operation ids come from the description itself (a local file; for a URL only
 * `--include-path` and tool ids can match).
 */
export async function excludedToolIds(input: string, manifest: Manifest, subset: GenerateSubset): Promise<string[]> {
  const operations = /^https?:\/\//i.test(input) ? new Map<string, { tags: string[]; operationId?: string }>() : operationsOf(parseDocumentText(await readFile(input, 'utf8'), input));
  const tags = new Set(subset.tags.map((tag) => tag.toLowerCase()));
  const kept = (tool: Manifest['tools'][number]): boolean => {
    const source = operations.get(`${tool.method} ${tool.path}`);
    if (source?.tags.some((tag) => tags.has(tag.toLowerCase()))) return true;
    if (subset.paths.some((prefix) => tool.path === prefix || tool.path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`))) return true;
    return subset.operations.includes(tool.id) || (source?.operationId !== undefined && subset.operations.includes(source.operationId));
  };
  return manifest.tools.filter((tool) => !kept(tool)).map((tool) => tool.id);
}

function operationsOf(document: unknown): Map<string, { tags: string[]; operationId?: string }> {
  const found = new Map<string, { tags: string[]; operationId?: string }>();
  const paths = (document as { paths?: unknown } | null)?.paths;
  if (typeof paths !== 'object' || paths === null) return found;
  for (const [path, item] of Object.entries(paths as Record<string, unknown>)) {
    if (typeof item !== 'object' || item === null) continue;
    for (const method of METHODS) {
      const operation = (item as Record<string, unknown>)[method] as { tags?: unknown; operationId?: unknown } | undefined;
      if (typeof operation !== 'object' || operation === null) continue;
      const tags = Array.isArray(operation.tags) ? operation.tags.filter((tag): tag is string => typeof tag === 'string') : [];
      found.set(`${method.toUpperCase()} ${path}`, { tags, ...(typeof operation.operationId === 'string' ? { operationId: operation.operationId } : {}) });
    }
  }
  return found;
}

/** An overlay that also leaves out `ids`, on top of the user's own. */
export function withExcludedTools(overlay: ManifestOverlay | undefined, ids: readonly string[]): ManifestOverlay {
  const tools = { ...(overlay?.tools ?? {}) };
  for (const id of ids) tools[id] = { ...(tools[id] ?? {}), exclude: true };
  return { ...(overlay ?? {}), tools };
}

/**
 * A starting overlay for a generated manifest (`--overlay-scaffold <file>`): every tool id with its
 * operation's summary and a `TODO` intent to replace. Selection and exports ignore `TODO` text, so the
 * scaffold changes nothing until someone writes real `when` and `avoid_when`.
 */
export function overlayScaffold(manifest: Manifest): string {
  const tools: Record<string, { intent: { when: string; avoid_when: string } }> = {};
  for (const tool of manifest.tools) {
    const summary = tool.description
      .split(/\n|(?<=[.!?])\s/, 1)[0]!
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 200);
    tools[tool.id] = { intent: { when: `TODO: when should an agent call this? (${summary})`, avoid_when: 'TODO: when should it not?' } };
  }
  return `# Overlay scaffold: replace each TODO with real intent, delete the entries you keep as generated,\n# then run: aicap generate <description> --overlay <this file>\n${loadYaml().stringify({ tools }, { lineWidth: 0 })}`;
}
