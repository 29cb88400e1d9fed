// Tool selection cost on a catalog of about 1,000 tools (GitHub and Stripe, generated from the shared
// corpus and loaded into one client): the first `selectTools` on a new catalog array builds the index,
// later queries on the same array reuse it. Quality (recall, MRR) is measured by `npm run
// eval:selection`, not here.
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createClient } from 'aicap/client';
import { generateManifest } from 'aicap/openapi';
import { selectTools } from 'aicap/tools';
import { medianOf, round, spreadOf } from '../lib/measure.js';

const CORPUS = new URL('../../../shared/corpus/', import.meta.url);
const FILES = ['big/github-api.github.com-2020-07.json', 'big/stripe-spec3-2022-04.json'];
// Timing queries only, of the shapes users type; none is scored.
const QUERIES = [
  'list the open pull requests of octocat/hello-world',
  'create a customer with email ada@example.com',
  'who starred my repository?',
  'refund charge ch_123',
  'delete the branch feature-x',
  'show the invoices of customer cus_42',
  'add a label bug to issue 7',
  'cancel subscription sub_9',
  'fork this repository into my account',
  'upload a file for dispute evidence',
];
const ROUNDS = 5;

export async function benchmarkSelection() {
  if (!existsSync(new URL(FILES[0], CORPUS))) return { pending: `The shared corpus (${CORPUS.pathname}) is not on this machine.` };
  const client = createClient();
  try {
    for (const file of FILES) {
      const { manifest } = await generateManifest({ input: new URL(file, CORPUS).pathname });
      await client.load(manifest);
    }
    const tools = client.catalog().tools;
    const builds = [];
    const queries = [];
    for (let index = 0; index < ROUNDS; index++) {
      // A new array: the selector indexes per catalog array, so this one is indexed from scratch.
      const fresh = [...tools];
      let startedAt = performance.now();
      selectTools(fresh, QUERIES[0], { limit: 5 });
      builds.push(performance.now() - startedAt);
      for (const query of QUERIES.slice(1)) {
        startedAt = performance.now();
        selectTools(fresh, query, { limit: 5 });
        queries.push(performance.now() - startedAt);
      }
    }
    const queryInMs = spreadOf(queries);
    return {
      tools: tools.length,
      rounds: ROUNDS,
      firstQueryWithIndexBuildInMs: round(medianOf(builds)),
      queryInMs,
      targets: { queryInMs: '≤ 5', indexBuildInMs: '≤ 200' },
      met: { query: queryInMs.median <= 5, indexBuild: medianOf(builds) - queryInMs.median <= 200 },
    };
  } finally {
    await client.close();
  }
}
