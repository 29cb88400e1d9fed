import { describe, expect, it } from 'vitest';
import type { Manifest } from '../index.js';
import { redactForDisplay } from './redact-for-display.js';

const manifest = { policy: { redact_from_logs: ['card_number', 'password'] } } as unknown as Manifest;

describe('redactForDisplay', () => {
  it('replaces members the manifest names at any depth, and leaves the input as it was', () => {
    const input = { payment: { card_number: '4242 4242 4242 4242', amount: 10 }, users: [{ password: 'hunter2', name: 'Ada' }] };
    const shown = redactForDisplay(input, manifest) as typeof input;
    expect(shown.payment.card_number).toBe('[REDACTED]');
    expect(shown.payment.amount).toBe(10);
    expect(shown.users[0]?.password).toBe('[REDACTED]');
    expect(shown.users[0]?.name).toBe('Ada');
    expect(input.payment.card_number).toBe('4242 4242 4242 4242');
  });

  it('removes typed credentials from every string, keys aside', () => {
    const token = 'tok_live_abcdefghijklmnop';
    const shown = JSON.stringify(redactForDisplay({ url: `https://api.example.com/x?token=${token}`, list: [`Bearer ${token}`] }, manifest, [token]));
    expect(shown).not.toContain(token);
  });

  it('works on a plain string and on a manifest without policy', () => {
    expect(redactForDisplay('secret-value-123456', {} as Manifest, ['secret-value-123456'])).not.toContain('secret-value-123456');
    expect(redactForDisplay({ a: 1 }, {} as Manifest)).toEqual({ a: 1 });
  });

  it('stops at 64 levels instead of recursing without end', () => {
    let deep: Record<string, unknown> = { leaf: 'x' };
    for (let level = 0; level < 10_000; level++) deep = { next: deep };
    expect(() => redactForDisplay(deep, {} as Manifest)).not.toThrow();
  });
});
