/**
 * `npm run example`: starts the Payments API and prints its origin as the first line of stdout.
 * `PORT` picks the port (default 3000; `0` picks a free one).
 * @module
 */

import { PAYMENTS_TOKENS, startPaymentsServer } from './start-payments-server.js';

const port = process.env['PORT'] === undefined || process.env['PORT'] === '' ? 3000 : Number(process.env['PORT']);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`✘ PORT must be an integer from 0 to 65535, got ${JSON.stringify(process.env['PORT'])}.\n`);
  process.exit(2);
}
const payments = await startPaymentsServer({ port }).catch((error: unknown) => {
  const reason = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${port} is in use; set PORT to another port or 0` : String((error as Error).message);
  process.stderr.write(`✘ The Payments API could not start on 127.0.0.1: ${reason}.\n`);
  process.exit(1);
});
// Installed before the origin is printed: whoever reads the origin may stop the server right away.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void payments.close().then(() => process.exit(0)));
}
process.stdout.write(`${payments.origin}\n`);
process.stderr.write(
  `Payments API listening. Manifest: ${payments.manifestUrl}\nTokens: ${Object.entries(PAYMENTS_TOKENS)
    .map(([token, scopes]) => `${token} (${scopes.join(', ')})`)
    .join(', ')}; send X-Agent-ID on every call. Ctrl-C stops.\n`,
);
