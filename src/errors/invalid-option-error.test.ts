import { describe, expect, it } from 'vitest';
import { checkIntegerOption, checkNumberOption, invalidOptionError } from './invalid-option-error.js';

describe('invalidOptionError', () => {
  it('names the option path, the rule and the value given, then the fix', () => {
    const error = invalidOptionError('network.timeouts.headersInMs', 'a finite number ≥ 0', -1, { fix: 'Use 0 to wait without a deadline.' });
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toBe('The `network.timeouts.headersInMs` option must be a finite number ≥ 0, got -1. Use 0 to wait without a deadline.');
  });

  it.each([
    [Number.NaN, 'NaN'],
    ['5s', '"5s"'],
    [undefined, 'undefined'],
    [{ a: 1 }, '{"a":1}'],
    [() => 1, 'a function'],
    ['x'.repeat(300), `"${'x'.repeat(200)}…"`],
  ])('shows %j as %s', (value, shown) => {
    expect(invalidOptionError('x', 'a number', value).message).toBe(`The \`x\` option must be a number, got ${shown}.`);
  });
});

describe('checkIntegerOption', () => {
  it.each([
    [0, {}, true],
    [1, { minimum: 1 }, true],
    [20, { minimum: 0, maximum: 20 }, true],
    [21, { minimum: 0, maximum: 20 }, false],
    [0, { minimum: 1 }, false],
    [1.5, {}, false],
    [Number.NaN, {}, false],
    [2 ** 53, {}, false],
  ])('%s within %j → %s', (value, bounds, accepted) => {
    if (accepted) expect(checkIntegerOption('limit', value, bounds)).toBe(value);
    else expect(() => checkIntegerOption('limit', value, bounds)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });

  it('says the bounds in the rule', () => {
    expect(() => checkIntegerOption('retry.limit', -1)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: 'The `retry.limit` option must be an integer ≥ 0, got -1.' }));
    expect(() => checkIntegerOption('maxSizeInBytes', 0, { minimum: 1, of: '`client.load`' })).toThrow(
      expect.objectContaining({ message: 'The `maxSizeInBytes` option of `client.load` must be a positive integer, got 0.' }),
    );
    expect(() => checkIntegerOption('maxJobs', 0, { minimum: 1 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: 'The `maxJobs` option must be a positive integer, got 0.' }));
    expect(() => checkIntegerOption('maxRedirects', 21, { maximum: 20 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', message: 'The `maxRedirects` option must be an integer from 0 to 20, got 21.' }),
    );
  });
});

describe('checkNumberOption', () => {
  it('accepts finite numbers within the bounds and refuses the rest', () => {
    expect(checkNumberOption('weight', 0.5, { minimum: 0, maximum: 1 })).toBe(0.5);
    expect(() => checkNumberOption('weight', 2, { minimum: 0, maximum: 1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', message: 'The `weight` option must be a number from 0 to 1, got 2.' }),
    );
    expect(() => checkNumberOption('delayInMs', Number.POSITIVE_INFINITY, { minimum: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', message: 'The `delayInMs` option must be a finite number ≥ 0, got Infinity.' }),
    );
    expect(() => checkNumberOption('delayInMs', '1' as unknown as number, { minimum: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});
