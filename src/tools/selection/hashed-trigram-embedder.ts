/**
 * A deterministic FAKE embedder for tests and the evaluation: a hashed bag of character trigrams,
 * L2-normalised. It has no notion of meaning (it only sees spelling), needs no model and no network,
 * and gives the same vectors on every machine. It exercises the fusion path of
 * `selectToolsWithEmbeddings`; it says nothing about what a real embedding model would add.
 * @internal
 */
export function createHashedTrigramEmbedder(dimensions = 256): (texts: string[]) => Promise<number[][]> {
  return async (texts) => texts.map((text) => embedText(text, dimensions));
}

function embedText(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    const padded = ` ${word} `;
    for (let start = 0; start + 3 <= padded.length; start++) vector[fnv1a(padded.slice(start, start + 3)) % dimensions]! += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

/** 32-bit FNV-1a: a fixed, well-spread hash, so that vectors do not depend on the platform. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
