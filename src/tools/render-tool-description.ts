import type { Resource, Tool } from '../manifest/manifest-v0.js';

/**
 * The description a model reads: the manifest's description plus the intent, compactly
 * (`Use when: … Avoid when: … First: …`), and a deprecation note. Returns, errors and policy stay out:
 * they are for the client, not for choosing a tool.
 */
export function renderToolDescription(tool: Tool | Resource): string {
  const parts = [tool.description.trim()];
  const intent = tool.intent;
  if (intent?.when && !isPlaceholder(intent.when)) parts.push(`Use when: ${intent.when.trim()}`);
  if (intent?.avoid_when && !isPlaceholder(intent.avoid_when)) parts.push(`Avoid when: ${intent.avoid_when.trim()}`);
  if (intent?.prerequisites) parts.push(`First: ${intent.prerequisites.trim()}`);
  const deprecated = 'deprecated' in tool ? tool.deprecated : undefined;
  if (deprecated) {
    const replacement = typeof deprecated === 'object' && deprecated.replaced_by ? ` Use ${deprecated.replaced_by} instead.` : '';
    parts.push(`Deprecated.${replacement}`);
  }
  return parts.map((part) => (/[.!?]$/.test(part) ? part : `${part}.`)).join(' ');
}

/**
 * True for an intent the generator left as a `TODO:` marker: telling a model "Use when: TODO…" only
 * costs tokens. @internal
 */
export function isPlaceholder(text: string): boolean {
  return text.trimStart().startsWith('TODO:');
}
