// The proposal's claim under test: structured intent helps tool selection. Selection with and without
// `intent` on manifests that have it: Payments (examples/payments, with its own intent) and the
// generated GitHub manifest with the overlay in intent/github-intent.overlay.yaml (72 tools).
import { readFileSync } from 'node:fs';
import { catalogOf, importAicap, metricsOf, operationKey, ranksOf, readJson } from './evaluate-selection.js';
import { loadRequests } from './selection-requests.js';

const OVERLAY = new URL('./intent/github-intent.overlay.yaml', import.meta.url);
const PAYMENTS = new URL('../../examples/payments/payments.manifest.json', import.meta.url);

const withoutIntent = (manifest) => {
  for (const entry of [...manifest.tools, ...(manifest.resources ?? [])]) delete entry.intent;
  return manifest;
};
const withoutExamples = (manifest) => {
  for (const entry of manifest.tools) delete entry.example_trigger;
  return manifest;
};

/**
 * @param {{ githubManifest: object, requests: Array<{ request: string, operations: string[] }> }} input
 *   the generated GitHub manifest and the GitHub requests to rank (aggregates only are reported)
 */
export async function measureIntent({ githubManifest, requests }) {
  const { selectTools } = await importAicap('tools');
  const { parseManifestOverlay, applyManifestOverlay } = await importAicap('openapi');
  const overlay = parseManifestOverlay(readFileSync(OVERLAY, 'utf8'), OVERLAY.pathname);
  const covered = new Set(Object.keys(overlay.tools));
  const rank = (tools, list) => ranksOf(list, (request) => selectTools(tools, request, { limit: 50 }));

  const plain = await catalogOf(githubManifest);
  const withOverlay = await catalogOf(githubManifest, { transform: (manifest) => (applyManifestOverlay(manifest, overlay, []), manifest) });
  const keys = new Set(plain.map(operationKey));
  const servable = requests.filter((entry) => entry.operations.some((operation) => keys.has(operation)));
  const idByKey = new Map(githubManifest.tools.map((tool) => [`${tool.method} ${tool.path}`, tool.id]));
  const targeted = servable.filter((entry) => entry.operations.some((operation) => covered.has(idByKey.get(operation))));
  const github = {
    overlayTools: covered.size,
    all: { without: metricsOf(await rank(plain, servable)), with: metricsOf(await rank(withOverlay, servable)) },
    targeted: { without: metricsOf(await rank(plain, targeted)), with: metricsOf(await rank(withOverlay, targeted)) },
  };

  const paymentsManifest = readJson(PAYMENTS);
  const paymentsRequests = loadRequests('intent').get('payments');
  const paymentsCatalog = async (transform) => {
    const { createClient } = await importAicap('client');
    const { createCatalog } = await importAicap('tools');
    const client = createClient();
    try {
      const service = await client.load(transform(structuredClone(paymentsManifest)));
      return createCatalog([service], { includeResources: true }).tools;
    } finally {
      await client.close();
    }
  };
  const payments = {
    tools: (await paymentsCatalog((manifest) => manifest)).length,
    published: metricsOf(await rank(await paymentsCatalog((manifest) => manifest), paymentsRequests)),
    withoutIntent: metricsOf(await rank(await paymentsCatalog(withoutIntent), paymentsRequests)),
    withoutIntentOrExamples: metricsOf(await rank(await paymentsCatalog((manifest) => withoutExamples(withoutIntent(manifest))), paymentsRequests)),
  };
  return { github, payments };
}
