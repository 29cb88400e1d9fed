import { createRedactor, type Redactor } from '../client/call-seam.js';
import type { CliIo } from './cli-io.js';
import { terminalSafeJson } from '../internal/terminal-safe-text.js';

/** A {@link CliIo} that removes secrets from everything written, with the redactor it uses. */
export interface RedactingIo extends CliIo {
  /** Learns the names and values to remove (credentials, `policy.redact_from_logs`, arguments under those names). */
  readonly redactor: Redactor;
}

/**
 * Wraps `io` so that nothing the command prints (the envelope, summaries, job events, prompts)
 * carries a credential given on the command line or a value the manifest's `redact_from_logs`
 * names: an API that echoes the bearer token must not put it on stdout, into CI logs.
 */
export function createRedactingIo(io: CliIo, secrets: ReadonlyArray<string | undefined>): RedactingIo {
  const redactor = createRedactor({ secrets: secrets.filter((secret): secret is string => secret !== undefined) });
  return {
    redactor,
    isInteractive: io.isInteractive,
    stdout: (text) => io.stdout(redactor.text(text)),
    stderr: (text) => io.stderr(redactor.text(text)),
    error: (message) => io.error(redactor.text(message)),
    warn: (message) => io.warn(redactor.text(message)),
    info: (message) => io.info(redactor.text(message)),
  };
}

/** Prints a value (an envelope; a job event, `compact` on one line) as JSON on stdout: keys `redact_from_logs` names replaced at any depth, known secrets removed, terminal-safe. */
export function printRedactedJson(io: RedactingIo, value: unknown, options: { compact?: boolean } = {}): void {
  const redacted = value !== null && typeof value === 'object' && !Array.isArray(value) ? io.redactor.arguments(value as Record<string, unknown>) : value;
  io.stdout(terminalSafeJson(redacted, options));
}
