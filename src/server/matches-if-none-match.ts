/**
 * Whether an `If-None-Match` header matches an entity tag, with the weak comparison RFC 9110 §13.1.2
 * prescribes for this header: `*`, or any listed tag equal once a `W/` prefix is dropped. Give every
 * tag of the representations of one content (identity, br, gzip) to match a tag of any of them.
 */
export function matchesIfNoneMatch(header: string | null, etags: string | readonly string[]): boolean {
  if (header === null) return false;
  const tags = typeof etags === 'string' ? [etags] : etags;
  // What a revalidating client nearly always sends: the one tag it was given, as it was given.
  if (tags.includes(header)) return true;
  const opaque = tags.map((etag) => etag.replace(/^W\//, ''));
  for (const candidate of header.split(',')) {
    const tag = candidate.trim();
    if (tag === '*' || opaque.includes(tag.replace(/^W\//, ''))) return true;
  }
  return false;
}
