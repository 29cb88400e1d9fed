import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { runProducerScenario, type ProducerScenario } from './run-producer-scenario.js';
import { startBrokenProducer, type BrokenProducer } from './start-broken-producer.js';
import { feedManifest, startLivenessServer } from '../helpers/start-liveness-server.js';
import { BUILT_CLI } from '../helpers/run-built-cli.js';

const scenarios = (JSON.parse(readFileSync(new URL('../../conformance/http/producer.json', import.meta.url), 'utf8')) as { scenarios: ProducerScenario[] }).scenarios;

// Payments serves one manifest to everybody, so the rule for per-credential answers does not apply.
const notApplicableToPayments = new Set(['producer.manifest.per_credential_private']);

let payments: PaymentsServer;
let broken: BrokenProducer;
beforeAll(async () => {
  payments = await startPaymentsServer({ jobs: { eventIntervalInMs: 5, progressSteps: 3, retryInMs: 20, heartbeatIntervalInMs: 200 } });
  broken = await startBrokenProducer();
});
afterAll(async () => {
  await Promise.all([payments.close(), broken.close()]);
});

describe('the producer scenarios of the conformance kit, against the Payments example', () => {
  it.each(scenarios.map((scenario) => [scenario.id, scenario] as const))('%s', async (_id, scenario) => {
    const outcome = await runProducerScenario(scenario, {
      origin: payments.origin,
      job: {
        toolId: 'generate_report',
        arguments: { account_id: '12345', period: '2026-03' },
        headers: { authorization: 'Bearer demo-read', 'x-agent-id': 'conformance' },
        otherHeaders: { authorization: 'Bearer demo-admin', 'x-agent-id': 'conformance' },
      },
      // Closing 24680, an account no other scenario uses.
      keyedCall: { toolId: 'close_account', arguments: { account_id: '24680', reason: 'customer_request' }, headers: { authorization: 'Bearer demo-admin', 'x-agent-id': 'conformance' } },
    });
    expect(outcome, outcome.message).toMatchObject({ outcome: notApplicableToPayments.has(scenario.id) || scenario.requires === 'change_feed' ? 'skip' : 'pass' });
  });
});

describe('the change feed scenarios, against a producer serving createChangeFeedHandler', () => {
  const feedScenarios = scenarios.filter((scenario) => scenario.requires === 'change_feed');

  it('covers the feed rules', () => {
    expect(feedScenarios.length).toBeGreaterThanOrEqual(3);
  });

  it.each(feedScenarios.map((scenario) => [scenario.id, scenario] as const))('%s', async (_id, scenario) => {
    const server = await startLivenessServer('node:http', (origin) => feedManifest(origin, ['read_a']));
    try {
      const outcome = await runProducerScenario(scenario, { origin: server.origin });
      expect(outcome, outcome.message).toMatchObject({ outcome: 'pass' });
    } finally {
      await server.close();
    }
  });
});

describe('the producer scenarios, against a service that breaks them on purpose', () => {
  it('fails each rule the service breaks, says why, and skips what needs a job', async () => {
    const outcomes = new Map<string, string>();
    for (const scenario of scenarios) outcomes.set(scenario.id, (await runProducerScenario(scenario, { origin: broken.origin })).outcome);
    expect(Object.fromEntries(outcomes)).toMatchObject({
      'producer.manifest.get': 'fail',
      'producer.manifest.no_secrets': 'fail',
      'producer.manifest.per_credential_private': 'fail',
      'producer.manifest.compression_vary': 'fail',
      'producer.manifest.etag': 'fail',
      'producer.manifest.cache_control': 'fail',
      'producer.manifest.cors': 'fail',
      'producer.job.start': 'skip',
    });
    const message = (
      await runProducerScenario(
        scenarios.find((scenario) => scenario.id === 'producer.manifest.get')!,
        { origin: broken.origin },
      )
    ).message;
    expect(message).toMatch(/content-type is "text\/plain"; expected application\/ai-capabilities\+json/);
  });

  it('fails the one-effect rule of idempotency keys, on a tool that ignores its key', async () => {
    const unkeyed = await startBrokenProducer({ unkeyed: true });
    try {
      const scenario = scenarios.find((candidate) => candidate.id === 'producer.call.idempotency_key_one_effect')!;
      const outcome = await runProducerScenario(scenario, { origin: unkeyed.origin, keyedCall: { toolId: 'archive_item', arguments: { item_id: 'item-1' }, headers: {} } });
      expect(outcome, outcome.message).toMatchObject({ outcome: 'fail' });
      expect(outcome.message).toMatch(/archive-2.*differs from.*archive-1/);
    } finally {
      await unkeyed.close();
    }
  });

  it('fails the rule that the server enforces authentication, on a job tool that answers anyone', async () => {
    const open = await startBrokenProducer({ openJobs: true });
    try {
      const scenario = scenarios.find((candidate) => candidate.id === 'producer.call.requires_credentials')!;
      const outcome = await runProducerScenario(scenario, {
        origin: open.origin,
        job: { toolId: 'start_job', arguments: {}, headers: { authorization: 'Bearer conformance' }, otherHeaders: { authorization: 'Bearer other' } },
      });
      expect(outcome, outcome.message).toMatchObject({ outcome: 'fail' });
      expect(outcome.message).toMatch(/202/);
    } finally {
      await open.close();
    }
  });
});

describe('the safe producer scenarios, against an `aicap serve` preview (the built CLI)', () => {
  let preview: ChildProcess;
  let origin: string;

  beforeAll(async () => {
    preview = spawn(process.execPath, [BUILT_CLI, 'serve', fileURLToPath(new URL('../../examples/payments/payments.manifest.json', import.meta.url)), '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    origin = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('aicap serve printed no origin within 20 s')), 20_000);
      let output = '';
      preview.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (!output.includes('\n')) return;
        clearTimeout(timer);
        resolve(output.split('\n')[0]!);
      });
      preview.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`aicap serve exited early with ${code}`));
      });
    });
  }, 30_000);
  afterAll(async () => {
    const exited = new Promise((resolve) => preview.once('exit', resolve));
    preview.kill('SIGTERM');
    await exited;
  });

  // The preview serves the manifest like aicap/server, without a change feed (so those are not applicable) and without per-credential variants.
  const expected = (scenario: ProducerScenario): string => (scenario.requires === 'change_feed' || scenario.id === 'producer.manifest.per_credential_private' ? 'skip' : 'pass');

  it.each(scenarios.filter((scenario) => scenario.safe).map((scenario) => [scenario.id, scenario] as const))('%s', async (_id, scenario) => {
    const outcome = await runProducerScenario(scenario, { origin });
    expect(outcome, outcome.message).toMatchObject({ outcome: expected(scenario) });
  });
});
