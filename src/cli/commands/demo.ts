import { parseArgs } from 'node:util';
import type { CliCommand, CliIo } from '../cli-io.js';
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
  summary: 'run a narrated orchestrator session against the embedded Payments API',
  async run(argv: string[], io: CliIo): Promise<number> {
    try {
      const parsed = parseArgs({ args: argv, options: { help: { type: 'boolean', short: 'h', default: false } } });
      if (parsed.values.help) {
        io.stdout(USAGE);
        return 0;
      }
    } catch (error) {
      io.error(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    return runDemo({ io });
  },
};
