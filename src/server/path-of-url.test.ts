import { describe, expect, it } from 'vitest';
import { pathOfTarget, pathOfUrl } from './path-of-url.js';

const EXPECTED = '/.well-known/ai-capabilities';

describe('pathOfUrl', () => {
  it.each([
    'http://localhost/.well-known/ai-capabilities',
    'http://localhost/.well-known/ai-capabilities?format=json',
    'http://localhost/.well-known/ai-capabilities#top',
    'https://user:secret@api.example:8443/.well-known/ai-capabilities?a=/b',
    'http://localhost/.well-known/ai-capabilities/',
    'http://localhost/.well-known/ai-capabilitiesx',
    'http://localhost/.well-known/ai%2Dcapabilities',
    'http://localhost/x/.well-known/ai-capabilities',
    'http://localhost/',
    'http://localhost',
  ])('gives what the URL parser gives for %s', (url) => {
    const serialized = new URL(url).href;
    expect(pathOfUrl(serialized, EXPECTED)).toBe(new URL(serialized).pathname);
  });
});

describe('pathOfTarget', () => {
  it.each([
    ['/.well-known/ai-capabilities', EXPECTED],
    ['/.well-known/ai-capabilities?format=json', EXPECTED],
    ['/.well-known/ai-capabilities#top', EXPECTED],
    ['/.well-known/./ai-capabilities', EXPECTED],
    ['/tools/../.well-known/ai-capabilities', EXPECTED],
    ['http://api.example/.well-known/ai-capabilities', EXPECTED],
    ['http://api.example\\x/.well-known/ai-capabilities', '/x/.well-known/ai-capabilities'],
    ['/.well-known/ai-capabilities/', '/.well-known/ai-capabilities/'],
    ['/.well-known/AI-capabilities', '/.well-known/AI-capabilities'],
    ['/.well-known/ai-capabilitiesx?x', '/.well-known/ai-capabilitiesx'],
    ['http://[bad/.well-known/ai-capabilities?x', 'http://[bad/.well-known/ai-capabilities'],
  ])('reads %s as %s, normalized as the URL parser does', (target, path) => {
    expect(pathOfTarget(target, EXPECTED)).toBe(path);
  });
});
