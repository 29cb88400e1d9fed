import { describe, expect, it } from 'vitest';
import { AicapError } from '../errors/aicap-error.js';
import { invalidOptionError } from '../errors/invalid-option-error.js';
import { agentIdHeader } from '../client/call/agent-id-header.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import { cliAdvice, cliErrorMessage } from './cli-error-message.js';
import { optionAsFlag } from './cli-option-flags.js';

describe('options named as CLI flags', () => {
  it('names --agent-id for the missing agent id, from the option the error carries', () => {
    const manifest = { auth: { agent_identification: { requires_agent_id: true } } } as unknown as Manifest;
    let thrown: unknown;
    try {
      agentIdHeader(manifest, 'http://127.0.0.1:3000', undefined);
    } catch (error) {
      thrown = error;
    }
    expect(AicapError.isInstance(thrown) && thrown.option).toBe('agentId');
    const line = cliErrorMessage(thrown);
    expect(line).toContain('pass `--agent-id` (the name your agent goes by');
    expect(line).not.toMatch(/agentId|createClient/);
    expect(cliAdvice((thrown as Error).message, 'agentId')).toBe(line);
  });

  it('names --include-deprecated and --lenient in plain-text warnings and messages', () => {
    expect(cliAdvice('payments: 14 deprecated tool(s) hidden; pass `includeDeprecated: true` to show them')).toBe('payments: 14 deprecated tool(s) hidden; pass `--include-deprecated` to show them');
    expect(optionAsFlag('Fix the description, or pass `strict: false` (CLI --lenient) to generate anyway', 'strict')).toBe('Fix the description, or pass `--lenient` to generate anyway');
  });

  it('leaves an option no flag sets as it is, and every INVALID_OPTION carries its option', () => {
    const error = invalidOptionError('network.timeouts.headersInMs', 'a positive integer', 0);
    expect(error.option).toBe('network.timeouts.headersInMs');
    expect(optionAsFlag('pass `approve` to createClient', 'approve')).toBe('pass `approve` to createClient');
  });
});
