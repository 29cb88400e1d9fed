/** A plain JSON object (not null, not an array): what a parsed JSON document's members are checked with. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
