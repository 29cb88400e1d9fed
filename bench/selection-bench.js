// Speed of selectTools on a catalog of about 1,000 tools (the generated Kubernetes manifest, 1,024
// tools): index build (renamed copies of the tools each time, so no cached index answers) and one query after
// indexing. Targets: build ≤ 200 ms, query ≤ 5 ms. Called by `npm run eval:selection`; callable
// from the main bench as `await benchmarkSelection()`. Loops are bounded in count and time.
import { performance } from 'node:perf_hooks';
import { catalogOf, corpusAvailable, generateApiManifest, importAicap } from './selection/evaluate-selection.js';
import { loadRequests, SPLITS } from './selection/selection-requests.js';

const KUBERNETES = { key: 'kubernetes', name: 'Kubernetes', file: 'kubernetes-swagger.json' };
export const SELECTION_TARGETS = { indexBuildInMs: 200, queryInMs: 5 };

/**
 * @param {{ tools?: object[], requests?: string[], buildRounds?: number, queryRounds?: number, maxTimeInMs?: number }} [options]
 * @returns {Promise<undefined | { tools: number, source: string, indexBuildMedianInMs: number, indexBuildMaxInMs: number, queryMeanInMs: number, queryP95InMs: number, queries: number, targets: typeof SELECTION_TARGETS }>}
 *   undefined when no tools are given and the corpus is absent
 */
export async function benchmarkSelection(options = {}) {
  const { selectTools } = await importAicap('tools');
  let tools = options.tools;
  let source = 'the given tools';
  if (!tools) {
    if (!corpusAvailable()) return undefined;
    tools = await catalogOf(await generateApiManifest(KUBERNETES));
    source = `the generated ${KUBERNETES.name} manifest (${KUBERNETES.file})`;
  }
  const requests = options.requests ?? SPLITS.flatMap((split) => [...loadRequests(split).values()].flat().map((entry) => entry.request));
  const deadline = performance.now() + (options.maxTimeInMs ?? 20_000);
  const builds = [];
  for (let round = 0; round < (options.buildRounds ?? 9) && performance.now() < deadline; round++) {
    // Copies of the tools under new names: a copy of the same tools would share the index already built.
    const copy = tools.map((tool) => ({ ...tool, name: `${tool.name}_${round}` }));
    const startedAt = performance.now();
    selectTools(copy, 'warm the index');
    builds.push(performance.now() - startedAt);
  }
  for (const request of requests.slice(0, 20)) selectTools(tools, request);
  const queries = [];
  for (let round = 0; round < (options.queryRounds ?? 3) && performance.now() < deadline; round++) {
    for (const request of requests) {
      const startedAt = performance.now();
      selectTools(tools, request, { limit: 5 });
      queries.push(performance.now() - startedAt);
    }
  }
  const sorted = (values) => [...values].sort((left, right) => left - right);
  const quantile = (values, q) => sorted(values)[Math.min(values.length - 1, Math.floor(q * values.length))];
  return {
    tools: tools.length,
    source,
    indexBuildMedianInMs: quantile(builds, 0.5),
    indexBuildMaxInMs: Math.max(...builds),
    queryMeanInMs: queries.reduce((sum, value) => sum + value, 0) / queries.length,
    queryP95InMs: quantile(queries, 0.95),
    queries: queries.length,
    targets: SELECTION_TARGETS,
  };
}
