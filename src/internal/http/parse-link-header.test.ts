import { describe, expect, it } from 'vitest';
import { parseLinkHeader } from './parse-link-header.js';

describe('parseLinkHeader', () => {
  it.each([
    ['</m>; rel="ai-capabilities"', [{ target: '/m', relations: ['ai-capabilities'], parameters: { rel: 'ai-capabilities' } }]],
    ['<https://a.example/m>; rel=ai-capabilities', [{ target: 'https://a.example/m', relations: ['ai-capabilities'], parameters: { rel: 'ai-capabilities' } }]],
    [
      '</a>; rel="next", </b>; rel="AI-Capabilities alternate"; type="application/ai-capabilities+json"',
      [
        { target: '/a', relations: ['next'], parameters: { rel: 'next' } },
        { target: '/b', relations: ['ai-capabilities', 'alternate'], parameters: { rel: 'AI-Capabilities alternate', type: 'application/ai-capabilities+json' } },
      ],
    ],
    ['</a>; title="x, y; z"; rel="help"', [{ target: '/a', relations: ['help'], parameters: { title: 'x, y; z', rel: 'help' } }]],
    ['</a>; rel="first"; rel="second"', [{ target: '/a', relations: ['first'], parameters: { rel: 'first' } }]],
    ['</a>; constructor="x"; rel="next"', [{ target: '/a', relations: ['next'], parameters: { constructor: 'x', rel: 'next' } }]],
    ['garbage without brackets', []],
    ['', []],
  ])('parses %j', (header, expected) => {
    expect(parseLinkHeader(header)).toEqual(expected);
  });
});
