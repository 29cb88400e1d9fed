import { describe, expect, it } from 'vitest';
import { terminalSafeJson, terminalSafeText } from './terminal-safe-text.js';

// Every character class a terminal acts on, as a hostile manifest would carry it.
const HOSTILE = {
  clearScreen: 'before\u001b[2Jafter',
  hyperlink: '\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007',
  clipboard: '\u001b]52;c;cm0gLXJmIH4=\u0007',
  carriageReturn: 'Permanently deletes every account.\rReads your balance.',
  bell: 'ding\u0007',
  c1: 'eight-bit CSI \u009b2J and OSC \u009d0;title\u009c',
  bidi: 'safe\u202eexe.txt',
};

describe('terminalSafeText', () => {
  it.each(Object.entries(HOSTILE))('leaves no character a terminal acts on (%s)', (_name, text) => {
    const safe = terminalSafeText(text);
    // eslint-disable-next-line no-control-regex -- the point of the test
    expect(safe).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    // Escaped visibly, not dropped: the reader sees that something was there.
    expect(safe).toContain('\\u');
  });

  it('shows escapes in their visible \\uXXXX form', () => {
    expect(terminalSafeText(HOSTILE.clearScreen)).toBe('before\\u001b[2Jafter');
    expect(terminalSafeText(HOSTILE.carriageReturn)).toBe('Permanently deletes every account.\\u000dReads your balance.');
    expect(terminalSafeText('a\nb')).toBe('a\\u000ab');
  });

  it('keeps line feeds only when asked, and CR never', () => {
    expect(terminalSafeText('one\ntwo\r\u001b[1A', { keepNewlines: true })).toBe('one\ntwo\\u000d\\u001b[1A');
  });

  it('leaves ordinary text, including non-ASCII, as it is', () => {
    expect(terminalSafeText('Crée un compte — ✔ 12 €, 東京')).toBe('Crée un compte — ✔ 12 €, 東京');
  });
});

describe('terminalSafeJson', () => {
  it('escapes what JSON.stringify leaves raw (C1, bidi, line separators) and stays the same JSON value', () => {
    const value = { description: HOSTILE.c1, name: HOSTILE.bidi, list: ['x\u2028y', HOSTILE.hyperlink] };
    const text = terminalSafeJson(value);
    // eslint-disable-next-line no-control-regex -- the point of the test
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('prints one line with compact', () => {
    expect(terminalSafeJson({ a: '\u009b' }, { compact: true })).toBe('{"a":"\\u009b"}\n');
  });
});
