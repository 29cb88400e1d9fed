// Intent study on an API not studied before: Resend (../shared/corpus/medium/resend.yaml). Ranks the
// requests of intent/resend.jsonl with selectTools on the generated manifest, with and without the
// overlay in intent/resend-intent.overlay.yaml (real `when` / `avoid_when`), and prints recall@1,
// recall@5 and MRR of each. Needs `npm run build` and the corpus.
//   node bench/selection/measure-resend-intent.js
import { readFileSync } from 'node:fs';
import { catalogOf, importAicap, metricsOf, operationKey, ranksOf } from './evaluate-selection.js';
import { loadRequests } from './selection-requests.js';

const SPEC = new URL('../../../shared/corpus/medium/resend.yaml', import.meta.url);
const OVERLAY = new URL('./intent/resend-intent.overlay.yaml', import.meta.url);

const { generateManifest, parseManifestOverlay, applyManifestOverlay } = await importAicap('openapi');
const { selectTools } = await importAicap('tools');
const { manifest } = await generateManifest({ input: SPEC.pathname, strict: false });
const overlay = parseManifestOverlay(readFileSync(OVERLAY, 'utf8'), OVERLAY.pathname);
const requests = loadRequests('intent').get('resend');
const plain = await catalogOf(manifest);
const withIntent = await catalogOf(manifest, { transform: (edited) => (applyManifestOverlay(edited, overlay, []), edited) });
const keys = new Set(plain.map(operationKey));
const servable = requests.filter((entry) => entry.operations.some((operation) => keys.has(operation)));
const rank = (tools) => ranksOf(servable, (request) => selectTools(tools, request, { limit: 50 }));
const format = (metrics) => `r@1 ${metrics.recallAt1.toFixed(3)}  r@5 ${metrics.recallAt5.toFixed(3)}  MRR ${metrics.mrr.toFixed(3)}`;
console.log(`Resend: ${plain.length} catalog tools, ${Object.keys(overlay.tools).length} with intent in the overlay, ${servable.length} of ${requests.length} requests servable`);
console.log(`without intent  ${format(metricsOf(await rank(plain)))}`);
console.log(`with intent     ${format(metricsOf(await rank(withIntent)))}`);
