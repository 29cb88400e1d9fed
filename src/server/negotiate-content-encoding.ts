/** The content codings the producer prepares, in the order it prefers them when the client ranks them equally. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

const PREFERENCE: readonly ContentCoding[] = ['br', 'gzip', 'identity'];

// A header a client sends once is usually sent the same way on every request: remember the last answer.
let lastHeader: string | undefined;
let lastChoice: ContentCoding | undefined;

/**
 * Picks the representation to send for an `Accept-Encoding` header (RFC 9110 §12.5.3): the coding with
 * the highest `q` among `br`, `gzip` (also as `x-gzip`) and `identity`, `*` standing for every coding
 * not listed, `q=0` meaning "not acceptable", and ties going to the smaller representation (br, then
 * gzip, then identity). `identity` is acceptable unless refused explicitly or through `*;q=0`; unlisted,
 * it ranks with the lowest positive weight listed. No header means
 * identity: any coding would be allowed, but a client that does not say may not decode it.
 * Returns `undefined` when nothing the producer has is acceptable (the caller answers 406).
 */
export function negotiateContentEncoding(header: string | null): ContentCoding | undefined {
  if (header === null) return 'identity';
  if (header === lastHeader) return lastChoice;
  const choice = choose(header);
  lastHeader = header;
  lastChoice = choice;
  return choice;
}

function choose(header: string): ContentCoding | undefined {
  const weights = new Map<string, number>();
  for (const element of header.split(',')) {
    const [rawName = '', ...parameters] = element.split(';');
    const name = rawName.trim().toLowerCase();
    if (name === '') continue;
    let weight = 1;
    for (const parameter of parameters) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(parameter);
      // RFC 9110 §12.4.2 weights are 0 to 1 with at most three decimals; anything else counts as 0 (refused).
      if (match) weight = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(match[1] as string) ? Number(match[1]) : 0;
    }
    const key = name === 'x-gzip' ? 'gzip' : name;
    // A coding listed twice keeps its best weight.
    weights.set(key, Math.max(weights.get(key) ?? 0, weight));
  }
  const wildcard = weights.get('*');
  // Unlisted identity ranks with the least-wanted coding the client did list, so `gzip;q=0.5` still gets gzip.
  const implicitIdentity = wildcard ?? Math.min(1, ...[...weights.values()].filter((weight) => weight > 0));
  let best: ContentCoding | undefined;
  let bestWeight = 0;
  for (const coding of PREFERENCE) {
    const weight = weights.get(coding) ?? (coding === 'identity' ? implicitIdentity : (wildcard ?? 0));
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}
