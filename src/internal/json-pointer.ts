/** Escapes one reference token (RFC 6901 §3). */
export function escapePointerToken(token: string | number): string {
  const text = String(token);
  // Almost no member name needs escaping; validation and the scan build a pointer per member of large manifests.
  if (!text.includes('~') && !text.includes('/')) return text;
  return text.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Builds a JSON Pointer from reference tokens. */
export function toPointer(tokens: ReadonlyArray<string | number>): string {
  let pointer = '';
  for (const token of tokens) pointer += `/${escapePointerToken(token)}`;
  return pointer;
}

/** Splits a JSON Pointer into unescaped tokens. */
export function fromPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}
