import type { CliCommand, CliIo } from '../cli-io.js';
import { parseCommandLine } from '../parse-command-line.js';
import { runDemo } from '../demo/run-demo.js';

const USAGE = `Usage: aicap demo

Starts the embedded Payments example API on a free loopback port and runs a narrated orchestrator
session against it: discovery and caching, trust checks, scope-filtered catalogs, tool selection and
export, pagination, a 429 retried after Retry-After, an approval-gated call, an async report with
progress and a needs_input decision, and the redacted audit trail. Works offline; stops its server.

Exit status: 0 when every step behaved, 1 otherwise, 2 when the example is not built.
`;

/** `aicap demo`: the README's main job. */
export const demoCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, io, { usage: USAGE, options: {}, positionals: { min: 0, max: 0, missing: '', expected: 'no arguments' } });
    if (typeof parsed === 'number') return parsed;
    return runDemo({ io });
  },
};
