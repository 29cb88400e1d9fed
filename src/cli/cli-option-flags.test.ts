import { describe, expect, it } from 'vitest';
import { AicapError } from '../errors/aicap-error.js';
import { invalidOptionError } from '../errors/invalid-option-error.js';
import { argumentTerm, approvalTerm, optionTerm, programOnlyTerm, worded } from '../errors/message-term.js';
import { agentIdHeader } from '../client/call/agent-id-header.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import { cliAdvice, cliErrorMessage } from './cli-error-message.js';
import { flagForOption } from './cli-option-flags.js';

describe('terms worded as CLI flags and commands', () => {
  it('names --agent-id for the missing agent id, from the term the error carries', () => {
    const manifest = { auth: { agent_identification: { requires_agent_id: true } } } as unknown as Manifest;
    let thrown: unknown;
    try {
      agentIdHeader(manifest, 'http://127.0.0.1:3000', undefined);
    } catch (error) {
      thrown = error;
    }
    expect(AicapError.isInstance(thrown) && thrown.option).toBe('agentId');
    expect((thrown as Error).message).toContain('pass the `agentId` option of `createClient` (the name your agent goes by');
    const line = cliErrorMessage(thrown);
    expect(line).toContain('pass `--agent-id <id>` (the name your agent goes by');
    expect(line).not.toMatch(/agentId|createClient/);
  });

  it('words each kind of term its own way, and leaves what a message quotes alone', () => {
    const message = worded`Raise ${optionTerm('network.timeouts.headersInMs')}, pass ${optionTerm('strict', { value: false })}; ${argumentTerm('originOrUrl', 'discover')} is wrong; ${approvalTerm('refund', 'https://a.example')}${programOnlyTerm('call x')}.`;
    expect(message.text).toBe("Raise `network.timeouts.headersInMs`, pass `strict: false`; The `originOrUrl` given to `discover` is wrong; call `client.approve('refund')` (from code: call x).");
    expect(cliAdvice(message.text, message.terms)).toBe('Raise `--timeout <ms>`, pass `--lenient`; The <origin> argument is wrong; run `aicap call https://a.example refund --pin`.');
    // Without the terms, nothing is guessed from the English.
    expect(cliAdvice(message.text)).toBe(message.text);
  });

  it('leaves an option no flag sets as a program writes it, and every INVALID_OPTION carries its option', () => {
    const error = invalidOptionError('network.timeouts.headersInMs', 'a positive integer', 0);
    expect(error.option).toBe('network.timeouts.headersInMs');
    const refused = new AicapError('APPROVAL_REQUIRED', worded`Pass ${optionTerm('approve', { of: 'createClient' })}.`);
    expect(refused.option).toBe('approve');
    expect(cliErrorMessage(refused)).toBe('Pass the `approve` option of `createClient`.');
    expect(flagForOption('agentId')).toBe('--agent-id');
    expect(flagForOption('approve')).toBeUndefined();
  });
});
