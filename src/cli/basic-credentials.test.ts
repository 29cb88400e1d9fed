import { describe, expect, it } from 'vitest';
import { captureCliIo } from '../../test/helpers/run-built-cli.js';
import { basicCredentialUsage, DEFAULT_PASSWORD_VARIABLE, readBasicCredentials } from './basic-credentials.js';

describe('readBasicCredentials', () => {
  it.each([
    ['no flags: no Basic credentials', {}, {}, undefined],
    ['--username with the default variable set', { username: 'AC123' }, { [DEFAULT_PASSWORD_VARIABLE]: 'pw' }, { username: 'AC123', password: 'pw' }],
    ['--username with the default variable unset: an empty password (Stripe keys have none)', { username: 'sk_test' }, {}, { username: 'sk_test', password: '' }],
    ['--password-env naming a set variable', { username: 'u', 'password-env': 'TWILIO_TOKEN' }, { TWILIO_TOKEN: 'tw', [DEFAULT_PASSWORD_VARIABLE]: 'other' }, { username: 'u', password: 'tw' }],
    ['--password-env naming a variable set to the empty string', { username: 'u', 'password-env': 'EMPTY' }, { EMPTY: '' }, { username: 'u', password: '' }],
  ])('%s', (_case, values, environment, expected) => {
    const io = captureCliIo();
    expect(readBasicCredentials(io, values, environment)).toEqual(expected);
    expect(io.err).toBe('');
  });

  it.each([
    ['--password-env without --username', { 'password-env': 'PW' }, {}, '✘ `--password-env` needs `--username`: it is the password of HTTP Basic credentials.\n'],
    [
      '--password-env naming an unset variable',
      { username: 'u', 'password-env': 'MISSING_PW' },
      { [DEFAULT_PASSWORD_VARIABLE]: 'not-this-one' },
      '✘ `--password-env MISSING_PW`: the environment variable MISSING_PW is not set; export it with the password first.\n',
    ],
  ])('exits 2 for %s, naming the flag', (_case, values, environment, expected) => {
    const io = captureCliIo();
    expect(readBasicCredentials(io, values, environment)).toBe(2);
    expect(io.err).toBe(expected);
    expect(io.err).not.toContain('not-this-one');
  });
});

describe('basicCredentialUsage', () => {
  it('pads both flags to the column and names the default variable', () => {
    const lines = basicCredentialUsage(24).trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.map((line) => line.slice(0, 24))).toEqual([`  --username <U>`.padEnd(24), `  --password-env <V>`.padEnd(24)]);
    expect(lines[1]).toContain(`default ${DEFAULT_PASSWORD_VARIABLE}`);
  });
});
