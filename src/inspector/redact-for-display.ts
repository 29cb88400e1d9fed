import type { Manifest } from '../index.js';
import { createRedactor } from '../client/seam.js';

/**
 * A copy of `value` fit to show on the inspector's page: every member named in the manifest's
 * `policy.redact_from_logs` is replaced by `[REDACTED]` at any depth, and the credentials the person
 * typed are removed from every string. The page is a display like a log: the same rules apply.
 */
export function redactForDisplay(value: unknown, manifest: Manifest, secrets: readonly string[] = []): unknown {
  const redactor = createRedactor({ parameterNames: manifest.policy?.redact_from_logs ?? [], secrets });
  const copied = redactor.arguments({ value })['value'];
  return replaceStrings(copied, (text) => redactor.text(text), 0);
}

function replaceStrings(value: unknown, replace: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return replace(value);
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => replaceStrings(item, replace, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, replaceStrings(child, replace, depth + 1)]));
}
