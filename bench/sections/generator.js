// Section 5: the OpenAPI generator on the largest corpus descriptions. That benchmark belongs to the
// generator's own `bench/generator*` files; this section takes their results as they are (figures
// and their own machine notes) rather than measuring the same thing a second way.
import { readdirSync, readFileSync } from 'node:fs';

const BENCH = new URL('../', import.meta.url);

export function collectGeneratorResults() {
  const files = readdirSync(BENCH).filter((name) => name.startsWith('generator'));
  const json = files.find((name) => name.endsWith('.json'));
  if (!json) {
    return { pending: files.length === 0 ? 'The generator benchmark (`bench/generator*`) has not landed yet.' : `No results file among ${files.map((name) => `bench/${name}`).join(', ')}.` };
  }
  return { source: `bench/${json}`, data: JSON.parse(readFileSync(new URL(json, BENCH), 'utf8')) };
}
