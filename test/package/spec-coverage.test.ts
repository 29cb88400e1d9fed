/**
 * docs/spec.md documents exactly the fields of the JSON Schema, and every validation issue code the
 * fixtures exercise. Field tables are marked `<!-- fields: <object> -->`, where `<object>` is
 * `manifest` (the top level), a `$defs` name of the schema, or a `$defs` name and an inline member
 * (`auth.api_key`); the first column of each row is a field name in backticks.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { manifestSchema } from '../../src/manifest/manifest-schema.js';
import { invalidFixtures, unparsableFixtures, warningFixtures } from '../fixtures/manifests/expectations.js';

const spec = readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8');

type SchemaNode = Record<string, unknown>;

function isRecord(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `object.field` for every property of the top level and of every definition, descending into inline objects only. */
function schemaFields(node: SchemaNode, prefix: string): string[] {
  const properties = isRecord(node['properties']) ? node['properties'] : {};
  return Object.entries(properties).flatMap(([name, child]) => [`${prefix}.${name}`, ...(isRecord(child) && isRecord(child['properties']) ? schemaFields(child, `${prefix}.${name}`) : [])]);
}

function documentedFields(markdown: string): string[] {
  const fields: string[] = [];
  let object: string | undefined;
  let inTable = false;
  for (const line of markdown.split('\n')) {
    const marker = /^<!-- fields: ([\w.]+) -->$/.exec(line);
    if (marker) {
      object = marker[1];
      inTable = false;
    } else if (object !== undefined && line.startsWith('|')) {
      inTable = true;
      const name = /^\| `([^`]+)` \|/.exec(line)?.[1];
      if (name) fields.push(`${object}.${name}`);
    } else if (inTable) {
      // The first line after the table ends it; prose below belongs to no field list.
      object = undefined;
      inTable = false;
    }
  }
  return fields;
}

describe('docs/spec.md', () => {
  const fromSchema = [
    ...schemaFields(manifestSchema as unknown as SchemaNode, 'manifest'),
    ...Object.entries(manifestSchema.$defs as unknown as Record<string, SchemaNode>).flatMap(([name, definition]) => schemaFields(definition, name)),
  ];
  const fromSpec = documentedFields(spec);

  it('documents every field the schema has', () => {
    expect(fromSchema.filter((field) => !fromSpec.includes(field))).toEqual([]);
  });

  it('documents no field the schema lacks, and none twice', () => {
    expect(fromSpec.filter((field) => !fromSchema.includes(field))).toEqual([]);
    expect(fromSpec.filter((field, index) => fromSpec.indexOf(field) !== index)).toEqual([]);
  });

  it('reads a meaningful number of fields (the table parser is not blind)', () => {
    expect(fromSchema.length).toBeGreaterThan(100);
    expect(fromSpec).toContain('auth.agent_identification.requires_agent_id');
    expect(fromSpec).toContain('temporal_behavior.reconnection');
  });

  it('lists every issue code the fixtures exercise in its validation table', () => {
    // Plain JSON Schema keyword failures are covered by the table's `schema.<keyword>` row.
    const codes = new Set([...invalidFixtures, ...warningFixtures, ...unparsableFixtures].map((fixture) => fixture.code).filter((code) => !/^schema\.(required|enum|type|pattern)$/.test(code)));
    const missing = [...codes].filter((code) => !spec.includes(`| \`${code}\` |`));
    expect(missing).toEqual([]);
  });

  it.each([
    'application/ai-capabilities+json',
    '/.well-known/ai-capabilities',
    'rel="ai-capabilities"',
    '/.well-known/ai-catalog.json',
    'Vary: Authorization',
    'If-None-Match',
    'RFC 8785',
    'Accept: text/event-stream',
    'Last-Event-ID',
    'Idempotency-Key',
    'x-ai-intent',
    'x-ai-errors',
    'x-ai-policy',
    'x-ai-temporal',
    'x-ai-resource',
    'x-ai-exclude',
    'x-ai-prompts',
  ])('covers %s', (term) => {
    expect(spec).toContain(term);
  });
});
