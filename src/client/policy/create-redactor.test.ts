import { describe, expect, it } from 'vitest';
import { createRedactor } from './create-redactor.js';

describe('createRedactor', () => {
  it('replaces redacted parameters, case-insensitively, without touching the input', () => {
    const redactor = createRedactor({ parameterNames: ['ssn', 'Account_ID'] });
    const input = { account_id: 'acc-1', nested: { SSN: '123-45-6789', keep: 1 }, list: [{ ssn: 'x-1234' }] };
    expect(redactor.arguments(input)).toEqual({ account_id: '[REDACTED]', nested: { SSN: '[REDACTED]', keep: 1 }, list: [{ ssn: '[REDACTED]' }] });
    expect(input.account_id).toBe('acc-1');
  });

  it('learns redacted values and removes them from free text, plain and URL-encoded', () => {
    const redactor = createRedactor({ parameterNames: ['email'] });
    redactor.arguments({ email: 'ada+x@example.com' });
    expect(redactor.text('GET /users?email=ada%2Bx%40example.com failed for ada+x@example.com')).toBe('GET /users?email=[REDACTED] failed for [REDACTED]');
  });

  it('removes a redacted value where it stands as a token of its own, never inside another identifier', () => {
    const redactor = createRedactor({ parameterNames: ['account_id'], secrets: ['tok-SECRET-99'] });
    redactor.arguments({ account_id: '12345' });
    expect(redactor.text('{"account_id":"12345","transaction_id":"txn_12345_0005","ref":"12345-b","uuid":"a12345","path":"/accounts/12345/x","note":"account 12345."}')).toBe(
      '{"account_id":"[REDACTED]","transaction_id":"txn_12345_0005","ref":"12345-b","uuid":"a12345","path":"/accounts/[REDACTED]/x","note":"account [REDACTED]."}',
    );
    // Credentials go wherever they appear, inside identifiers too.
    expect(redactor.text('id_tok-SECRET-99_x')).toBe('id_[REDACTED]_x');
  });

  it('weighs whole characters around a redacted value: a letter outside the BMP continues an identifier, an emoji does not', () => {
    const redactor = createRedactor({ parameterNames: ['account_id'] });
    redactor.arguments({ account_id: '12345' });
    expect(redactor.text('\u{1D400}12345 12345\u{1D400} \u{1F600}12345\u{1F600} 1234512345 é12345 12345')).toBe(
      '\u{1D400}12345 12345\u{1D400} \u{1F600}[REDACTED]\u{1F600} 1234512345 é12345 [REDACTED]',
    );
  });

  it('removes secrets, the longest first', () => {
    const redactor = createRedactor({ secrets: ['token-abc', 'token-abc-extended'] });
    expect(redactor.text('a token-abc-extended b token-abc')).toBe('a [REDACTED] b [REDACTED]');
  });

  it('ignores secrets too short to be meaningful', () => {
    const redactor = createRedactor({ secrets: ['ok'] });
    expect(redactor.text('ok then')).toBe('ok then');
  });

  it('removes a short value of a redacted parameter where it follows its name, and nowhere else', () => {
    const redactor = createRedactor({ parameterNames: ['card_cvc'] });
    redactor.arguments({ card_cvc: '123' });
    expect(redactor.text('{"card_cvc": "123", "amount": 123} card_cvc=123&x=1')).toBe('{"card_cvc": "[REDACTED]", "amount": 123} card_cvc=[REDACTED]&x=1');
  });

  it('leaves no redacted value in an audit copy, however deep it is nested', () => {
    const redactor = createRedactor({ parameterNames: ['ssn'] });
    let deep: Record<string, unknown> = { ssn: 'deep-secret-1' };
    for (let level = 0; level < 100; level++) deep = { child: deep };
    expect(JSON.stringify(redactor.arguments(deep))).not.toContain('deep-secret-1');
    expect(redactor.text('echo deep-secret-1')).toBe('echo [REDACTED]');
    let nested: unknown = 'nested-secret-2';
    for (let level = 0; level < 40; level++) nested = { inner: nested };
    redactor.arguments({ ssn: nested });
    expect(redactor.text('echo nested-secret-2')).toBe('echo [REDACTED]');
  });

  it('redacts credentials inside response data, and leaves the values of redacted parameters to the application', () => {
    const redactor = createRedactor({ parameterNames: ['ssn'], secrets: ['tok-SECRET-1'] });
    redactor.arguments({ ssn: '123-45-6789' });
    expect(redactor.data({ echo: 'Bearer tok-SECRET-1', person: { ssn: '123-45-6789', name: 'Ada' }, list: ['tok-SECRET-1'] })).toEqual({
      echo: 'Bearer [REDACTED]',
      person: { ssn: '123-45-6789', name: 'Ada' },
      list: ['[REDACTED]'],
    });
    expect(redactor.text('ssn 123-45-6789')).toBe('ssn [REDACTED]');
    const plain = { a: 1 };
    expect(createRedactor().data(plain)).toBe(plain);
  });

  it('gives the same data with the source text as without it, escapes included', () => {
    const redactor = createRedactor({ secrets: ['tok-SECRET-1', 'odd"secret'] });
    for (const text of ['{"echo":"Bearer tok-SECRET-1"}', '{"a":"plain"}', '{"echo":"tok\\u002dSECRET-1"}', '{"q":"odd\\"secret"}', '"tok-SECRET-1"']) {
      const value: unknown = JSON.parse(text);
      expect(redactor.data(value, text)).toEqual(redactor.data(value));
    }
    expect(redactor.data({ echo: 'tok-SECRET-1' }, '{"echo":"tok\\u002dSECRET-1"}')).toEqual({ echo: '[REDACTED]' });
    const untouched = { a: 'plain' };
    expect(redactor.data(untouched, '{"a":"plain"}')).toBe(untouched);
  });

  it('learns secrets added later and redacted names added later', () => {
    const redactor = createRedactor();
    redactor.addSecret('fresh-access-token');
    redactor.addParameterNames(['pin']);
    expect(redactor.text('Bearer fresh-access-token')).toBe('Bearer [REDACTED]');
    expect(redactor.arguments({ pin: '1234' })).toEqual({ pin: '[REDACTED]' });
    expect(redactor.isRedactedName('PIN')).toBe(true);
  });

  it('decides standalone values as a Unicode pattern would, for ASCII and non-ASCII neighbours alike (seeded random texts)', () => {
    // The reference: the value with no letter, digit, `_` or `-` code point on either side, in a `u`
    // pattern (which also never matches inside a surrogate pair).
    const reference = (text: string, value: string): string => text.replace(new RegExp(`(?<![\\p{L}\\p{N}_-])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_-])`, 'gu'), '[REDACTED]');
    const alphabet = ['1', '2', 'a', 'Z', '_', '-', '.', '"', '/', ' ', ':', '\u00e9', '\u4e2d', '\u0663', '\u20ac', '\u00b7', '\u{1d400}', '\u{1f600}', '\ud800', '\udc00'];
    let seed = 20_261_204;
    const random = (bound: number): number => {
      // xorshift32: every bit varies, so small bounds see every value.
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % bound;
    };
    const word = (length: number): string => Array.from({ length }, () => alphabet[random(alphabet.length)]).join('');
    // A value with a lone surrogate (no URL encoding) is learned and removed, not a URIError.
    const surrogate = createRedactor({ parameterNames: ['account_id'] });
    surrogate.arguments({ account_id: '12\ud80034' });
    expect(surrogate.text('id 12\ud80034.')).toBe('id [REDACTED].');
    let redactedCount = 0;
    for (let round = 0; round < 500; round++) {
      const value = `12${word(random(3))}34`;
      const redactor = createRedactor({ parameterNames: ['account_id'] });
      redactor.arguments({ account_id: value });
      const text = Array.from({ length: 6 }, () => `${word(random(3))}${value}${word(random(3))}`).join(word(1));
      const expected = reference(text, value);
      expect(redactor.text(text), JSON.stringify({ text, value })).toBe(expected);
      if (expected !== text) redactedCount++;
    }
    // Both outcomes occur, so the comparison covers redacted and kept values.
    expect(redactedCount).toBeGreaterThan(50);
    expect(redactedCount).toBeLessThan(500);
  });
});
