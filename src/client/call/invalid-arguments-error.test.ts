import { describe, expect, it } from 'vitest';
import { InvalidArgumentsError, type ArgumentProblem } from './invalid-arguments-error.js';

const problem = (pointer: string, message = 'is wrong'): ArgumentProblem => ({ pointer, rule: 'type', message });

describe('InvalidArgumentsError', () => {
  it('names the tool and every problem by JSON Pointer (the root as /), and what to do', () => {
    const error = new InvalidArgumentsError('createPayment', [problem('', 'must be object'), problem('/items/0/qty', 'must be >= 1')]);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENTS', toolId: 'createPayment', name: 'InvalidArgumentsError' });
    expect(error.message).toBe('Invalid arguments for tool "createPayment": /: must be object; /items/0/qty: must be >= 1. Fix these fields and call again; nothing was sent.');
  });

  it('shows the first five problems and counts the rest, keeping all of them in problems', () => {
    const problems = Array.from({ length: 8 }, (_, index) => problem(`/p${index}`));
    const error = new InvalidArgumentsError('t', problems);
    expect(error.message).toContain('/p4: is wrong (and 3 more).');
    expect(error.message).not.toContain('/p5');
    expect(error.problems).toHaveLength(8);
  });
});
