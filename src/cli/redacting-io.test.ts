import { describe, expect, it } from 'vitest';
import { captureCliIo } from '../../test/helpers/run-built-cli.js';
import { createRedactingIo, printRedactedJson } from './redacting-io.js';

const token = 'ghp_ExampleSecretToken1234567890abcd';

describe('createRedactingIo', () => {
  it('removes the given secrets from every stream and kind of message', () => {
    const inner = captureCliIo(true);
    const io = createRedactingIo(inner, [token, undefined]);
    io.stdout(`out ${token}\n`);
    io.stderr(`progress ${token}\n`);
    io.error(`failed with ${token}`);
    io.warn(`Authorization: Bearer ${token}`);
    io.info(`logged in as ${token}`);
    expect(`${inner.out}${inner.err}`).not.toContain(token);
    expect(inner.err).toContain('✘ failed with');
    expect(io.isInteractive).toBe(true);
  });

  it('removes a secret learnt later, such as a stored login token', () => {
    const inner = captureCliIo();
    const io = createRedactingIo(inner, []);
    io.redactor.addSecret(token);
    io.stdout(token);
    expect(inner.out).not.toContain(token);
  });
});

describe('printRedactedJson', () => {
  it('prints JSON without the secrets, at any depth, and without terminal escapes', () => {
    const inner = captureCliIo();
    const io = createRedactingIo(inner, [token]);
    printRedactedJson(io, { result: { echoed: `key=${token}`, list: [token] }, note: '\u001b[2Jcleared' });
    expect(inner.out).not.toContain(token);
    expect(inner.out).not.toContain('\u001b');
    expect(() => JSON.parse(inner.out)).not.toThrow();
  });

  it('prints arrays and scalars too', () => {
    const inner = captureCliIo();
    const io = createRedactingIo(inner, [token]);
    printRedactedJson(io, [token, 1], { compact: true });
    expect(inner.out).not.toContain(token);
    expect(inner.out.trim().startsWith('[')).toBe(true);
  });
});
