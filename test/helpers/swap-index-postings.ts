/**
 * A persisted selection index (its record's text) with the postings of two tools exchanged: still a
 * valid index of the same tools, one that ranks them the other way round, so a test can tell the
 * restored index from one built again.
 */
export function swapIndexPostings(text: string, first: number, second: number): string {
  const record = JSON.parse(text) as { postings: number[] };
  const flat = record.postings;
  // Each term's count, then its tools' positions and weight places.
  for (let at = 0; at < flat.length; at += 1 + 2 * flat[at]!) {
    for (let offset = at + 1; offset < at + 1 + 2 * flat[at]!; offset += 2) {
      if (flat[offset] === first) flat[offset] = second;
      else if (flat[offset] === second) flat[offset] = first;
    }
  }
  return JSON.stringify(record);
}
