import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignToolNames, sanitizeToolName, TOOL_NAME_PATTERN } from './sanitize-tool-name.js';

describe('sanitizeToolName', () => {
  it.each([
    ['analyze_transactions', 'analyze_transactions'],
    ['payments__analyze_transactions', 'payments__analyze_transactions'],
    ['list-items', 'list-items'],
  ])('keeps the valid name %s as is', (raw, expected) => {
    expect(sanitizeToolName(raw)).toBe(expected);
  });

  it.each(['repos/get content', '9lives', '_private', 'café_crème', 'pаyments', 'a'.repeat(80), '', '💳 pay', 'a.b:c'])('turns %j into a valid name', (raw) => {
    const name = sanitizeToolName(raw);
    expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(name.length).toBeLessThanOrEqual(64);
  });

  it('keeps names that differ only in invalid characters apart', () => {
    expect(sanitizeToolName('a b')).not.toBe(sanitizeToolName('a.b'));
    expect(sanitizeToolName('pаyments')).not.toBe('payments');
  });
});

describe('assignToolNames', () => {
  it('gives valid, unique names to any list of distinct raw names (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.oneof(fc.string({ unit: 'binary', maxLength: 100 }), fc.stringMatching(/^[a-z_]{1,70}$/), fc.constantFrom('send_email', 'a__send_email', 'x'.repeat(64), 'x'.repeat(65))), {
          maxLength: 40,
        }),
        (raws) => {
          const names = assignToolNames(raws);
          expect(names).toHaveLength(raws.length);
          expect(new Set(names).size).toBe(names.length);
          for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { maxLength: 20 }), (raws) => {
        expect(assignToolNames(raws)).toEqual(assignToolNames(raws));
      }),
    );
  });

  it('separates equal names and names that collide after truncation', () => {
    const long = `${'n'.repeat(70)}`;
    const names = assignToolNames(['same', 'same', long, `${long}x`]);
    expect(new Set(names).size).toBe(4);
    expect(names[0]).toBe('same');
  });
});
