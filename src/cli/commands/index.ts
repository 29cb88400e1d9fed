import type { CliCommand } from '../cli-io.js';
import { callCommand } from './call.js';
import { checkCommand } from './check.js';
import { demoCommand } from './demo.js';
import { diffCommand } from './diff.js';
import { generateCommand } from './generate.js';
import { inspectCommand } from './inspect.js';
import { loginCommand } from './login.js';
import { logoutCommand } from './logout.js';
import { mcpCommand } from './mcp.js';
import { serveCommand } from './serve.js';
import { toolsCommand } from './tools.js';
import { validateCommand } from './validate.js';

/**
 * Every CLI command by name. Each lives in its own module beside this file; add a line here when
 * adding one (keep the list alphabetical).
 */
export const commands: Record<string, CliCommand> = {
  call: callCommand,
  check: checkCommand,
  demo: demoCommand,
  diff: diffCommand,
  generate: generateCommand,
  inspect: inspectCommand,
  login: loginCommand,
  logout: logoutCommand,
  mcp: mcpCommand,
  serve: serveCommand,
  tools: toolsCommand,
  validate: validateCommand,
};
