import { describe, expect, it } from 'vitest';
import type { Prompt } from '../../manifest/manifest-v0.js';
import { InvalidArgumentsError } from './invalid-arguments-error.js';
import { renderPrompt } from './render-prompt.js';

const prompt: Prompt = {
  id: 'explain',
  description: 'Explains',
  template: 'Explain {{ transaction_id }} on {{account_id}} in {{language}}.',
  parameters: { account_id: { type: 'string', required: true }, transaction_id: { type: 'string', required: true }, language: { type: 'string', default: 'English' } },
};

describe('renderPrompt', () => {
  it('fills every placeholder, using declared defaults', () => {
    expect(renderPrompt(prompt, { account_id: 'a1', transaction_id: 't1' }).text).toBe('Explain t1 on a1 in English.');
  });

  it('does not expand placeholders inside values', () => {
    expect(renderPrompt(prompt, { account_id: '{{transaction_id}}', transaction_id: 't1' }).text).toBe('Explain t1 on {{transaction_id}} in English.');
  });

  it('checks the parameters like a tool call', () => {
    expect(() => renderPrompt(prompt, { account_id: 'a1' })).toThrow(InvalidArgumentsError);
    expect(() => renderPrompt(prompt, { account_id: 'a1', transaction_id: 't1', extra: 1 })).toThrow(InvalidArgumentsError);
  });

  it('refuses a placeholder that has no value and no parameter', () => {
    const loose: Prompt = { id: 'loose', description: 'd', template: 'Hello {{name}}' };
    expect(() => renderPrompt(loose, {})).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENTS', problems: [expect.objectContaining({ pointer: '/name' })] }));
  });
});
