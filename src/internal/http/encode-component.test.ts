import { describe, expect, it } from 'vitest';
import { encodeComponent } from './encode-component.js';

describe('encodeComponent', () => {
  it('leaves only RFC 3986 unreserved characters as they are', () => {
    expect(encodeComponent("A-z_0.9~!'()* ")).toBe('A-z_0.9~%21%27%28%29%2A%20');
  });

  it('keeps the reserved characters allow_reserved allows, and never the ones that change a query', () => {
    expect(encodeComponent('a/b:c?d&e=f#g+h%', true)).toBe('a/b:c?d%26e%3Df%23g%2Bh%25');
  });
});
