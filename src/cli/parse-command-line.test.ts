import { describe, expect, it } from 'vitest';
import { captureCliIo } from '../../test/helpers/run-built-cli.js';
import { closestName, parseCommandLine, readWholeNumberOption } from './parse-command-line.js';

const spec = {
  usage: 'Usage: aicap validate <manifest> [options]\n\nChecks a manifest.\n',
  options: { strict: { type: 'boolean' as const }, format: { type: 'string' as const, short: 'f' }, header: { type: 'string' as const, multiple: true } },
  positionals: { min: 1, max: 1, missing: 'the manifest to validate', expected: 'one manifest' },
};

describe('parseCommandLine', () => {
  it('returns typed values and the positionals', () => {
    const io = captureCliIo();
    const parsed = parseCommandLine(['m.json', '--strict', '-f', 'json', '--header', 'a: 1', '--header', 'b: 2'], io, spec);
    expect(parsed).toEqual({ values: { strict: true, format: 'json', header: ['a: 1', 'b: 2'], help: false }, positionals: ['m.json'] });
    expect(io.err).toBe('');
  });

  it('prints the usage on stdout and exits 0 for --help or -h, even with other mistakes', () => {
    for (const argv of [['--help'], ['-h', 'a', 'b']]) {
      const io = captureCliIo();
      expect(parseCommandLine(argv, io, spec)).toBe(0);
      expect(io.out).toContain('Usage: aicap validate');
      expect(io.err).toBe('');
    }
  });

  it('names the fix for too few or too many positionals, exit 2', () => {
    const few = captureCliIo();
    expect(parseCommandLine([], few, spec)).toBe(2);
    expect(few.err).toBe('✘ Missing the manifest to validate. Run `aicap validate --help` for the usage.\n');
    const many = captureCliIo();
    expect(parseCommandLine(['a', 'b'], many, spec)).toBe(2);
    expect(many.err).toContain('Expected one manifest, got 2.');
  });

  it('suggests the closest known option for a typo, a prefix or a short letter', () => {
    const cases: Array<[string, string]> = [
      ['--stirct', '--strict'],
      ['--form', '--format'],
      ['--heade=x', '--header'],
    ];
    for (const [given, suggestion] of cases) {
      const io = captureCliIo();
      expect(parseCommandLine(['m.json', given], io, spec)).toBe(2);
      expect(io.err).toContain(`did you mean \`${suggestion}\`?`);
    }
    const far = captureCliIo();
    expect(parseCommandLine(['m.json', '--zzzzzz'], far, spec)).toBe(2);
    expect(far.err).toContain('Unknown option `--zzzzzz`.');
  });

  it('says an option needs a value, or takes none', () => {
    const missing = captureCliIo();
    expect(parseCommandLine(['m.json', '--format'], missing, spec)).toBe(2);
    expect(missing.err).toContain('needs a value');
    const extra = captureCliIo();
    expect(parseCommandLine(['m.json', '--strict=yes'], extra, spec)).toBe(2);
    expect(extra.err).toContain('takes no value');
  });

  it('says how to pass a value that starts with "-", without repeating it (it may be a credential)', () => {
    const io = captureCliIo();
    expect(parseCommandLine(['m.json', '--format', '-secret-token'], io, spec)).toBe(2);
    expect(io.err).toContain('The `--format` option\'s value starts with "-": write the two as one, `--format=<value>`.');
    expect(io.err).not.toContain('secret-token');
  });

  it('does not let a typed option write terminal escapes to stderr', () => {
    const io = captureCliIo();
    expect(parseCommandLine(['m.json', '--x\u001b[2J\u001b]0;owned\u0007'], io, spec)).toBe(2);
    expect(io.err).not.toContain('\u001b');
    expect(io.err).not.toContain('\u0007');
  });

  it('falls back to "aicap" in the hint when the usage names no command', () => {
    const io = captureCliIo();
    expect(parseCommandLine([], io, { ...spec, usage: 'no usage line' })).toBe(2);
    expect(io.err).toContain('Run `aicap --help`');
  });
});

describe('readWholeNumberOption', () => {
  const rule = { fallback: 30, min: 1, max: 100, unit: 'seconds' };

  it('returns the fallback when absent and the number when in range, around spaces', () => {
    const io = captureCliIo();
    expect(readWholeNumberOption(io, 'timeout', undefined, rule)).toBe(30);
    expect(readWholeNumberOption(io, 'timeout', '1', rule)).toBe(1);
    expect(readWholeNumberOption(io, 'timeout', ' 100 ', rule)).toBe(100);
    expect(io.err).toBe('');
  });

  it('refuses fractions, signs, exponents, hex, out of range and unsafe integers, naming the flag', () => {
    for (const raw of ['0', '101', '1.5', '-5', '+5', '1e2', '0x10', '', 'ten', '99999999999999999999']) {
      const io = captureCliIo();
      expect(readWholeNumberOption(io, 'timeout', raw, rule)).toBeUndefined();
      expect(io.err).toContain('`--timeout`');
      expect(io.err).toContain('from 1 to 100');
    }
    const open = captureCliIo();
    expect(readWholeNumberOption(open, 'port', '-1', { fallback: 0, min: 0, unit: 'a TCP port' })).toBeUndefined();
    expect(open.err).toContain('0 or more');
  });

  it('escapes what it quotes back', () => {
    const io = captureCliIo();
    readWholeNumberOption(io, 'timeout', '5\u001b[31m', rule);
    expect(io.err).not.toContain('\u001b');
  });
});

describe('closestName', () => {
  it('prefers a prefix match from two characters, then the nearest within two edits', () => {
    expect(closestName('fo', ['format', 'force'])).toBe('format');
    expect(closestName('f', ['format'])).toBeUndefined();
    expect(closestName('strcit', ['strict', 'scrict'])).toBe('strict');
    expect(closestName('abcdef', ['strict'])).toBeUndefined();
    expect(closestName('', ['ab', 'abc'])).toBe('ab');
  });
});
