// One build's side of `bench/compare-builds.js`, in a process of its own: the client µs over the floor
// per call and per 304 revalidation (the bench's `clientOverFloor`), and Payments discovery, first
// contact and known manifest, beside the floor (the bench's `compareVariants`). Prints one JSON line.
// Usage: node bench/lib/compare-builds-child.js <dist directory> <payments origin> <revalidate origin>
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { clientOverFloor, compareVariants } from './measure.js';
import { parseJsonBytes } from './parse-json-bytes.js';
import { createRecordsOnlyStore } from './records-only-store.js';

const [dist, payments, revalidate] = process.argv.slice(2);
if (!dist || !payments || !revalidate) throw new Error('Usage: node bench/lib/compare-builds-child.js <dist directory> <payments origin> <revalidate origin>');
const { createClient } = await import(pathToFileURL(`${dist}/client/index.js`).href);
// The floor runs on the build's own undici and one-byte reader, as in `npm run bench` (one instance shared
// with the client): a build elsewhere (../main/dist) loads its own undici, and a floor on this checkout's
// would then not share the client's warm code for one build and share it for the other, which made the
// checkout's ratios look 0.1–0.2 worse than the same code at another path.
const { Agent, request } = createRequire(`${dist}/client/index.js`)('undici');
const { oneByteJsonText } = await import(pathToFileURL(`${dist}/manifest/one-byte-json-text.js`).href);
const MANIFEST_PATH = '/.well-known/ai-capabilities';
const TOKEN = 'demo-read';
const AGENT_ID = 'bench-agent';
const ARGUMENTS = { account_id: '12345', limit: 20 };
const dispatcher = new Agent();
const client = createClient({ agentId: AGENT_ID });
const stale = createClient({});
try {
  await client.discover(payments, { credentials: { token: TOKEN } });
  let calls = 0;
  const callUrl = `${payments}/v2/accounts/${ARGUMENTS.account_id}/transactions?limit=${ARGUMENTS.limit}`;
  const callHeaders = { accept: 'application/json', authorization: `Bearer ${TOKEN}`, 'x-agent-id': AGENT_ID };
  const call = await clientOverFloor(
    // A new session every 40 calls, as the bench's call section does (the manifest allows 50 actions a session).
    { name: 'aicap', run: () => client.call('list_transactions', ARGUMENTS, { sessionId: `compare-${Math.floor(calls++ / 40)}` }), check: (envelope) => expectOk(envelope.ok) },
    {
      name: 'floor',
      run: async () => JSON.parse(await (await request(callUrl, { headers: callHeaders, dispatcher })).body.text()),
      check: (body) => expectOk(body.transactions?.length === ARGUMENTS.limit),
    },
    { warmupIterations: 200, iterations: 2000, maxTimeInMs: 20_000 },
    'call',
  );
  await stale.discover(revalidate);
  const manifestUrl = `${revalidate}${MANIFEST_PATH}`;
  const first = await request(manifestUrl, { dispatcher });
  await first.body.dump();
  const etag = first.headers.etag;
  const revalidation = await clientOverFloor(
    { name: 'aicap', run: () => stale.discover(revalidate) },
    { name: 'floor', run: async () => (await request(manifestUrl, { dispatcher, headers: { 'if-none-match': etag } })).statusCode, check: (status) => expectOk(status === 304) },
    { warmupIterations: 200, iterations: 1500, maxTimeInMs: 15_000 },
    'revalidation',
  );
  // One store for every iteration of the known variant: the warm-up fills it, so each new client finds the verdicts.
  const verdicts = createRecordsOnlyStore(['verified']);
  const discoveryRows = await compareVariants(
    [
      { name: 'cold', setup: async () => createClient({}), run: (fresh) => fresh.discover(payments), teardown: (fresh) => fresh.close() },
      { name: 'known', setup: async () => createClient({ cache: verdicts }), run: (fresh) => fresh.discover(payments), teardown: (fresh) => fresh.close() },
      {
        name: 'floor',
        setup: async () => new Agent(),
        run: async (pool) => parseJsonBytes(new Uint8Array(await (await request(`${payments}${MANIFEST_PATH}`, { dispatcher: pool })).body.arrayBuffer()), oneByteJsonText),
        teardown: (pool) => pool.close(),
      },
    ],
    { warmupIterations: 40, iterations: 200, minIterations: 200, maxTimeInMs: 60_000 },
  );
  const [cold, known, floor] = discoveryRows;
  const ratio = (row, field) => Math.round((row[field] / floor[field]) * 1000) / 1000;
  process.stdout.write(
    `${JSON.stringify({
      callClientUs: call.microseconds.median,
      revalidationClientUs: revalidation.microseconds.median,
      discoveryColdVsFloor: ratio(cold, 'medianInMs'),
      discoveryColdVsFloorCpu: ratio(cold, 'clientCpuMedianInMs'),
      discoveryKnownVsFloor: ratio(known, 'medianInMs'),
      discoveryKnownVsFloorCpu: ratio(known, 'clientCpuMedianInMs'),
    })}\n`,
  );
} finally {
  await Promise.all([client.close(), stale.close(), dispatcher.close()]);
}

function expectOk(ok) {
  if (!ok) throw new Error('A measured round did not get the answer it expects.');
}
