import { describe, expect, it } from 'vitest';
import type { Manifest } from '../index.js';
import { toolsUnlockedByScopes } from './tools-unlocked-by-scopes.js';

const manifest = {
  schema_version: '0.1.0',
  service: { name: 'S', description: 'S', base_url: 'https://api.example.com' },
  tools: ['read_a', 'write_b', 'open_c'].map((id) => ({ id, path: `/${id}`, method: 'GET', description: id })),
  resources: [{ id: 'summary', path: '/summary', method: 'GET', description: 'summary' }],
  auth: { type: 'bearer', scopes: { read: ['read_a', 'summary'], admin: ['write_b'] } },
} as unknown as Manifest;

describe('toolsUnlockedByScopes', () => {
  it.each([
    [[], ['open_c'], ['read_a', 'write_b', 'summary']],
    [['read'], ['read_a', 'open_c', 'summary'], ['write_b']],
    [['read', 'admin'], ['read_a', 'write_b', 'open_c', 'summary'], []],
    [['unknown'], ['open_c'], ['read_a', 'write_b', 'summary']],
  ])('with scopes %j unlocks %j and leaves %j locked', (granted, unlocked, locked) => {
    expect(toolsUnlockedByScopes(manifest, granted)).toEqual({ unlocked, locked });
  });
});
