import { describe, expect, it } from 'vitest';
import { createToolIdAllocator, sanitizeToolId } from './tool-id.js';

const ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

describe('sanitizeToolId', () => {
  const cases: Array<[string, string]> = [
    ['listPets', 'listPets'],
    ['repos/list-for-org', 'repos_list-for-org'],
    ['get.user by id', 'get_user_by_id'],
    ['2fa_enable', 'op_2fa_enable'],
    ['__private__', 'private'],
    ['créer_paiement', 'creer_paiement'],
    ['!!!', 'operation'],
  ];
  it.each(cases)('%j → %j', (given, want) => {
    expect(sanitizeToolId(given)).toBe(want);
  });

  it('cuts long names to 64 characters with a stable hash suffix', () => {
    const long = `replace${'VeryLong'.repeat(12)}Status`;
    const id = sanitizeToolId(long);
    expect(id).toMatch(ID_PATTERN);
    expect(id).toHaveLength(64);
    expect(sanitizeToolId(long)).toBe(id);
    expect(sanitizeToolId(`${long}2`)).not.toBe(id);
  });
});

describe('createToolIdAllocator', () => {
  it('falls back to the method and path without an operationId', () => {
    expect(createToolIdAllocator()(undefined, 'GET', '/pets/{petId}/photos')).toBe('get_pets_by_petId_photos');
  });

  it('makes duplicates unique with a suffix that depends on the operation, not the order', () => {
    const first = createToolIdAllocator();
    const a = first('same', 'GET', '/a');
    const b = first('same', 'POST', '/b');
    const second = createToolIdAllocator();
    second('same', 'DELETE', '/c');
    expect(a).toBe('same');
    expect(b).toMatch(/^same_[0-9a-f]{8}$/);
    expect(second('same', 'POST', '/b')).toBe(b);
  });

  it('always yields ids matching the manifest pattern', () => {
    const allocate = createToolIdAllocator();
    for (const name of ['', '-', '9', 'ä', 'a'.repeat(200), 'a b/c{d}']) expect(allocate(name || undefined, 'GET', `/${name}`)).toMatch(ID_PATTERN);
  });
});
