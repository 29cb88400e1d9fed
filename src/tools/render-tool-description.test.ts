import { describe, expect, it } from 'vitest';
import type { Tool } from '../manifest/manifest-v0.js';
import { isPlaceholder, renderToolDescription } from './render-tool-description.js';

const tool = (extra: Record<string, unknown>): Tool => ({ id: 't', description: '  Creates a payment  ', method: 'POST', path: '/payments', ...extra }) as unknown as Tool;

describe('renderToolDescription', () => {
  it('ends each part with a full stop and joins the intent compactly', () => {
    expect(renderToolDescription(tool({ intent: { when: 'the user wants to pay', avoid_when: 'a refund is asked!', prerequisites: 'Find the customer' } }))).toBe(
      'Creates a payment. Use when: the user wants to pay. Avoid when: a refund is asked! First: Find the customer.',
    );
  });

  it('leaves out TODO placeholders the generator wrote', () => {
    expect(renderToolDescription(tool({ intent: { when: '  TODO: say when', avoid_when: 'TODO: x' } }))).toBe('Creates a payment.');
  });

  it('notes a deprecation, with its replacement when named', () => {
    expect(renderToolDescription(tool({ deprecated: true }))).toBe('Creates a payment. Deprecated.');
    expect(renderToolDescription(tool({ deprecated: { replaced_by: 'create_charge' } }))).toBe('Creates a payment. Deprecated. Use create_charge instead.');
    expect(renderToolDescription(tool({ deprecated: false }))).toBe('Creates a payment.');
  });

  it('keeps returns, errors and policy out of what the model reads', () => {
    const text = renderToolDescription(tool({ returns: { type: 'object', description: 'SECRET-RETURNS' }, errors: { card_declined: { status: 402 } } }));
    expect(text).not.toContain('SECRET-RETURNS');
    expect(text).not.toContain('card_declined');
  });
});

describe('isPlaceholder', () => {
  it('is true only for text starting with TODO:', () => {
    expect(isPlaceholder('  TODO: later')).toBe(true);
    expect(isPlaceholder('TODO later')).toBe(false);
    expect(isPlaceholder('Use it. TODO: later')).toBe(false);
  });
});
