// The labelled requests of the selection evaluation: one JSON object a line,
// `{ "request": "…", "operations": ["METHOD /path", …] }` (any listed operation serves the request).
// A split holds `<api>.jsonl` and, for requests written later in batches, `<api>.<batch>.jsonl`
// (tuning/box.fresh-1.jsonl): each batch is written before the selector changes it is meant to check.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

export const SELECTION_DIRECTORY = new URL('./', import.meta.url);
/** The splits: `tuning` may be looked at request by request; `held-out` only in aggregate. */
export const SPLITS = ['tuning', 'held-out'];

/** The batch of `<api>.jsonl`: the requests written before the selector. */
export const FIRST_BATCH = 'first';

/**
 * @param {string} split `tuning`, `held-out`, or `intent` (the Payments requests of the intent study)
 * @param {{ batch?: string }} [options] only the requests of this batch (`first`, or the `<batch>` of `<api>.<batch>.jsonl`)
 * @returns {Map<string, Array<{ request: string, operations: string[], batch: string }>>} requests by API key (file name up to the first dot)
 */
export function loadRequests(split, { batch } = {}) {
  const directory = new URL(`./${split}/`, SELECTION_DIRECTORY);
  const byApi = new Map();
  for (const file of readdirSync(directory)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()) {
    const [api, fileBatch = FIRST_BATCH] = file.replace(/\.jsonl$/, '').split('.');
    if (batch !== undefined && fileBatch !== batch) continue;
    const lines = readFileSync(new URL(file, directory), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
    const entries = lines.map((line, index) => {
      const entry = JSON.parse(line);
      if (typeof entry.request !== 'string' || !Array.isArray(entry.operations) || entry.operations.length === 0) {
        throw new Error(`${split}/${file} line ${index + 1}: expected { request, operations: [...] }`);
      }
      return { ...entry, batch: fileBatch };
    });
    byApi.set(api, [...(byApi.get(api) ?? []), ...entries]);
  }
  return byApi;
}

/** SHA-256 over the held-out files (name and bytes, in name order): recorded in held-out.sha256 when they were committed. */
export function heldOutDigest() {
  return requestsDigest('held-out');
}

/**
 * SHA-256 over the request files of a split directory (`held-out`, `blind/tuning`, `blind/unseen`):
 * each file's name and a line feed, then its bytes, in name order.
 */
export function requestsDigest(split) {
  const directory = new URL(`./${split}/`, SELECTION_DIRECTORY);
  const hash = createHash('sha256');
  for (const file of readdirSync(directory)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()) {
    hash.update(`${file}\n`);
    hash.update(readFileSync(new URL(file, directory)));
  }
  return hash.digest('hex');
}
