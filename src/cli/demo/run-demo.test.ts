import { describe, expect, it } from 'vitest';
import * as paymentsSources from '../../../examples/payments/start-payments-server.js';
import { ACCOUNT_IDS } from '../../../examples/payments/payments-data.js';
import { captureCliIo } from '../../../test/helpers/run-built-cli.js';
import { runDemo, type PaymentsModule, type PaymentsServer } from './run-demo.js';

// The example's sources, as the built example the CLI imports.
const loadSources = (): Promise<PaymentsModule> => Promise.resolve(paymentsSources as unknown as PaymentsModule);

describe('runDemo', () => {
  it('narrates every chapter against the example on loopback, leaks no account id, and exits 0', async () => {
    const io = captureCliIo();
    const code = await runDemo({ io, jobEventIntervalInMs: 5, loadPayments: loadSources });
    expect(io.err).not.toMatch(/✘/);
    expect(code).toBe(0);
    const headings = [...io.out.matchAll(/^── (\d+)\. /gm)].map((match) => Number(match[1]));
    expect(headings).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(io.out).toMatch(/^aicap demo — an orchestrator session against the Payments example API at http:\/\/127\.0\.0\.1:\d+$/m);
    // The second discovery within max-age is served from the HTTP cache.
    expect(io.out).toContain('discover again within max-age → 0 more request(s): served from the HTTP cache');
    expect(io.out).toMatch(/the API answered 429 [1-9]\d* time\(s\)/);
    expect(io.out).toMatch(/without an approve callback: → refused\/failed: /);
    expect(io.out).toContain('account_id is in redact_from_logs, and it appears in them 0 times ✔');
    expect(io.out).toContain('Done. The server is stopped; nothing is left running.');
  });

  it('exits 2 with what to run when the example is not built', async () => {
    const io = captureCliIo();
    const code = await runDemo({ io, loadPayments: () => Promise.reject(new Error("Cannot find module 'examples/payments/dist/start-payments-server.js'")) });
    expect(code).toBe(2);
    expect(io.out).toBe('');
    expect(io.err).toBe(
      "✘ The demo needs the built Payments example (examples/payments/dist): in an aicap checkout, run `npm run build` (Cannot find module 'examples/payments/dist/start-payments-server.js').\n",
    );
  });

  it('exits 1 when a step fails, and still stops the server', async () => {
    let closed = 0;
    const broken: PaymentsModule = {
      ACCOUNT_IDS,
      async startPaymentsServer(options) {
        const real = (await paymentsSources.startPaymentsServer(options)) as unknown as PaymentsServer;
        // Discovery is pointed at an origin where nothing answers.
        return { ...real, origin: 'http://127.0.0.1:9', close: () => ((closed += 1), real.close()) };
      },
    };
    const io = captureCliIo();
    expect(await runDemo({ io, loadPayments: () => Promise.resolve(broken) })).toBe(1);
    expect(io.err).toMatch(/^✘ [A-Z_]+: /);
    expect(closed).toBe(1);
    expect(io.out).not.toContain('Done.');
  });
});
