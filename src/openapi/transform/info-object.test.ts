import { describe, expect, it } from 'vitest';
import { semverOf, transformInfoObject } from './info-object.js';

describe('transformInfoObject', () => {
  const cases: Array<[string, { info: unknown; externalDocs?: unknown; want: unknown }]> = [
    [
      'maps title, description, contact and version',
      {
        info: { title: 'Pets', description: 'All about pets.\n\nLong details.', version: '1.2.3', contact: { email: 'api@example.com', url: 'https://example.com' } },
        externalDocs: { url: 'https://docs.example.com' },
        want: { service: { name: 'Pets', description: 'All about pets.', documentation_url: 'https://docs.example.com', contact: 'api@example.com' }, versioning: { current: '1.2.3' } },
      },
    ],
    ['prefers the 3.1 summary over the description', { info: { title: 'A', summary: 'Short.', description: 'Long.', version: 'x' }, want: { service: { name: 'A', description: 'Short.' } } }],
    ['falls back to the contact URL and a default name', { info: { contact: { url: 'https://example.com/support' } }, want: { service: { name: 'API', contact: 'https://example.com/support' } } }],
    ['ignores a relative documentation URL', { info: { title: 'A' }, externalDocs: { url: '/docs' }, want: { service: { name: 'A' } } }],
    ['cuts a long title to 200 characters', { info: { title: 'x'.repeat(300) }, want: { service: { name: `${'x'.repeat(199)}…` } } }],
  ];
  it.each(cases)('%s', (_name, { info, externalDocs, want }) => {
    expect(transformInfoObject(info, externalDocs)).toEqual(want);
  });
});

describe('semverOf', () => {
  const cases: Array<[unknown, string | undefined]> = [
    ['1.2.3', '1.2.3'],
    ['v2', '2.0.0'],
    ['1.0', '1.0.0'],
    ['1.0.0-beta.1', '1.0.0-beta.1'],
    ['2020-07-01', undefined],
    ['v1beta', undefined],
    [3, undefined],
  ];
  it.each(cases)('%j → %j', (given, want) => {
    expect(semverOf(given)).toBe(want);
  });
});
