/**
 * docs/ietf/ cannot drift from the spec: the names it registers are the ones the spec and the code
 * use, every spec section it cites exists, and every security subsection of the spec is summarised.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LINK_RELATION, MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH } from '../../src/manifest/manifest-v0.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const spec = read('docs/spec.md');
const drafts = readdirSync(new URL('../../docs/ietf/', import.meta.url)).filter((name) => name.endsWith('.md'));

/** Section numbers of the spec's headings (`3`, `7.16`, `8.4.1`, `A`). */
function specSections(): Set<string> {
  return new Set([...spec.matchAll(/^#{2,4} (?:Appendix ([A-Z])\.|(\d+(?:\.\d+)*)\.?) /gm)].map((match) => match[1] ?? match[2]!));
}

describe.each(drafts)('docs/ietf/%s', (name) => {
  const draft = read(`docs/ietf/${name}`);

  it('registers the well-known path, media type and link relation the spec and the code use', () => {
    const suffix = WELL_KNOWN_PATH.replace('/.well-known/', '');
    expect(draft).toContain(`URI suffix: \`${suffix}\``);
    expect(draft).toContain(`Subtype name: \`${MANIFEST_MEDIA_TYPE.replace('application/', '')}\``);
    expect(draft).toContain(`Relation name: \`${LINK_RELATION}\``);
    for (const value of [WELL_KNOWN_PATH, MANIFEST_MEDIA_TYPE, `rel="${LINK_RELATION}"`]) {
      expect(draft, value).toContain(value);
      expect(spec, value).toContain(value);
    }
  });

  it('follows the RFC 8615 and RFC 6838 templates', () => {
    for (const field of ['URI suffix:', 'Change controller:', 'Specification document(s):', 'Status:', 'Related information:']) expect(draft).toContain(field);
    for (const field of [
      'Type name:',
      'Subtype name:',
      'Required parameters:',
      'Optional parameters:',
      'Encoding considerations:',
      'Security considerations:',
      'Interoperability considerations:',
      'Published specification:',
      'Fragment identifier considerations:',
      'Intended usage:',
      'Change controller:',
    ])
      expect(draft).toContain(field);
  });

  it('cites only sections the spec has', () => {
    const cited = [...draft.matchAll(/\[SPEC\] Sections? (\d+(?:\.\d+)*(?: and \d+(?:\.\d+)*)?)/g)].flatMap((match) => match[1]!.split(' and '));
    expect(cited.length).toBeGreaterThan(10);
    const sections = specSections();
    expect(cited.filter((section) => !sections.has(section))).toEqual([]);
  });

  it('summarises every security subsection of the spec', () => {
    const security = [...specSections()].filter((section) => /^10\.\d+$/.test(section));
    expect(security.length).toBeGreaterThanOrEqual(5);
    expect(security.filter((section) => !draft.includes(`[SPEC] Section ${section})`))).toEqual([]);
  });

  it('states the size limit the spec states', () => {
    expect(spec).toContain('MUST NOT be larger than 8 MiB');
    expect(draft).toContain('8 MiB');
  });
});
