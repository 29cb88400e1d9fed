#!/usr/bin/env node
/**
 * The `aicap` command: a thin dispatcher over `src/cli/commands/<name>.ts`, each imported only when
 * it runs. Each command module exports `run(argv, io)` and returns the exit code: 0 success, 1 failed
 * check, 2 usage error. The build bundles it into `dist/cli/main.js` (the package's `bin`) and its
 * chunks (`scripts/bundle-cli.mjs`).
 * @module
 */
import { AICAP_VERSION } from '../internal/aicap-version.js';
import { commands } from './commands/index.js';
import { createProcessIo } from './cli-io.js';
import { closestName } from './parse-command-line.js';
import { terminalSafeText } from '../internal/terminal-safe-text.js';
import { wrapUsage } from './wrap-usage.js';

const io = createProcessIo();
const [name, ...rest] = process.argv.slice(2);

async function main(): Promise<number> {
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(wrapUsage(usage()));
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${AICAP_VERSION}\n`);
    return 0;
  }
  const command = commands[name];
  if (!command) {
    const closest = closestName(name, Object.keys(commands));
    io.error(`Unknown command "${terminalSafeText(name)}"${closest === undefined ? '.' : `: did you mean \`aicap ${closest}\`?`} Run \`aicap --help\` for the commands.`);
    return 2;
  }
  // The only WebAssembly a command runs is undici's HTTP parser. V8 compiles it with its baseline
  // compiler, then optimizes its busy functions on background threads, and the process waits for
  // those compiles before it exits: 0.3 to 0.9 s of a cached `aicap call` on two loaded cores, spent
  // for code a command runs for a few responses. The baseline code alone parses them fast enough; a
  // command that serves until stopped keeps the optimizing tier for its many requests.
  // (`node:v8` loads Node's streams: imported here, not by `--version`.)
  if (!command.serves) (await import('node:v8')).setFlagsFromString('--liftoff-only');
  return (await command.load()).run(rest, io);
}

function usage(): string {
  const lines = Object.entries(commands).map(([commandName, command]) => `  aicap ${commandName.padEnd(9)} ${command.summary}`);
  return `Usage: aicap <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun \`aicap <command> --help\` for a command's options.\n`;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Last resort: a bug in aicap itself. Say so plainly, without a stack trace unless asked for.
    io.error(`Internal error: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env['AICAP_DEBUG']) io.stderr(`${error instanceof Error ? error.stack : ''}\n`);
    process.exitCode = 1;
  },
);
