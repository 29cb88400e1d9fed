/**
 * Whether an `If-None-Match` header matches an entity tag, with the weak comparison RFC 9110 §13.1.2
 * prescribes for this header: `*`, or any listed tag equal once a `W/` prefix is dropped.
 */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const opaque = etag.replace(/^W\//, '');
  for (const candidate of header.split(',')) {
    const tag = candidate.trim();
    if (tag === '*' || tag.replace(/^W\//, '') === opaque) return true;
  }
  return false;
}
