import { describe, expect, it } from 'vitest';
import { resourceCoversUrl } from './resource-covers-url.js';

describe('resourceCoversUrl', () => {
  it.each<[string, string, boolean]>([
    ['https://h.example', 'https://h.example/alice', true],
    ['https://h.example/', 'https://h.example', true],
    ['https://h.example/alice', 'https://h.example/alice', true],
    ['https://h.example/alice/', 'https://h.example/alice/v1/', true],
    ['https://h.example/alice', 'https://h.example/alicex', false],
    ['https://h.example/alice', 'https://h.example/mallory', false],
    ['https://h.example/alice', 'https://h.example', false],
    ['https://h.example', 'https://h.example:8443/alice', false],
    ['http://h.example', 'https://h.example', false],
    ['https://h.example/alice?tenant=1', 'https://h.example/alice/v1', false],
    ['not a url', 'https://h.example', false],
  ])('%s covers %s: %s', (resource, url, covers) => {
    expect(resourceCoversUrl(resource, url)).toBe(covers);
  });
});
