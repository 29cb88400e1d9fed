import type { MessageTerm } from '../errors/message-term.js';

const TIMEOUT_FLAG = '--timeout <ms>';
const SIZE_FLAG = '--max-size <bytes>';

/**
 * The CLI flag that sets each library option a message may name. Errors carry the terms their
 * message names (`AicapError.terms`, `CallError.terms`, `ValidationIssue.terms`); a CLI user changes
 * a flag, so the CLI names it. Every network deadline is `--timeout`, every manifest or response cap
 * `--max-size` (see `clientOptionsFromFlags`).
 */
const OPTION_FLAGS: Readonly<Record<string, string>> = {
  agentId: '--agent-id <id>',
  includeDeprecated: '--include-deprecated',
  strict: '--lenient',
  refRoot: '--ref-root',
  serverUrl: '--server-url',
  overlay: '--overlay',
  arazzo: '--arazzo',
  // The deadline of a command's own wait (`aicap login`'s loopback redirect, `check`, `generate`).
  timeoutInMs: TIMEOUT_FLAG,
  'network.timeouts.connectInMs': TIMEOUT_FLAG,
  'network.timeouts.headersInMs': TIMEOUT_FLAG,
  'network.timeouts.bodyIdleInMs': TIMEOUT_FLAG,
  'network.timeouts.totalInMs': TIMEOUT_FLAG,
  'network.maxResponseSizeInBytes': SIZE_FLAG,
  'discovery.maxManifestSizeInBytes': SIZE_FLAG,
  maxSizeInBytes: SIZE_FLAG,
  'jobs.follow.maxDurationInMs': '--max-duration <ms>',
  'trust.allowedOrigins': '--allow-origin <origin>',
};

/** Options a CLI user sets with more than one flag, worded whole (the flags in backticks). */
const OPTION_WORDING: Readonly<Record<string, string>> = {
  credentials: '`--token <token>` or `--api-key <key>` (or act as you after `aicap login <origin>`)',
};

/** What the CLI calls a value given to a library function (`discover`'s `originOrUrl`), at the start of a sentence. */
const ARGUMENT_WORDING: Readonly<Record<string, string>> = {
  'discover.originOrUrl': 'The <origin> argument',
  'createManifestHandler.manifest': 'The manifest to serve',
};

/** The flag that sets `option`, or undefined when no flag does. */
export function flagForOption(option: string): string | undefined {
  return OPTION_FLAGS[option]?.split(' ')[0];
}

/**
 * How the CLI words a term of a library message: the flag for an option, the argument for a value
 * given to a function, the command for a method to call, nothing for advice only a program can
 * follow. Undefined when the CLI has no wording of its own (an option no flag sets stays as a program
 * writes it).
 */
export function cliTermWording(term: MessageTerm): string | undefined {
  switch (term.kind) {
    case 'option': {
      const flag = OPTION_FLAGS[term.option];
      return flag === undefined ? OPTION_WORDING[term.option] : `\`${flag}\``;
    }
    case 'argument':
      return ARGUMENT_WORDING[`${term.of}.${term.argument}`];
    case 'approval':
      return `run \`aicap call ${term.origin} ${term.toolId} --pin\``;
    case 'program-only':
      return '';
  }
}
