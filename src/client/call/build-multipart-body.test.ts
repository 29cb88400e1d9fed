import { describe, expect, it } from 'vitest';
import type { Parameter } from '../../manifest/manifest-v0.js';
import { buildMultipartBody } from './build-multipart-body.js';

// The multipart body read back by a real parser (the Fetch API's `formData()`), so what is checked
// is what a server receives, not the bytes the builder meant to write.

function build(fields: Record<string, unknown>, parameters: Record<string, Partial<Parameter>> = {}) {
  const { body, problems } = buildMultipartBody(fields, parameters as Record<string, Parameter>);
  const raw = new TextDecoder().decode(body.bytes);
  const form = () => new Request('http://127.0.0.1/', { method: 'POST', body: body.bytes as Uint8Array<ArrayBuffer>, headers: { 'content-type': body.contentType } }).formData();
  return { body, problems, raw, form };
}

describe('buildMultipartBody', () => {
  it('writes a well-formed body whose boundary is in the Content-Type and closes it', () => {
    const { body, raw } = build({ note: 'hi' });
    const boundary = /^multipart\/form-data; boundary=(aicap-[0-9a-f]{24})$/.exec(body.contentType)?.[1];
    expect(boundary).toBeDefined();
    expect(raw.startsWith(`--${boundary}\r\n`)).toBe(true);
    expect(raw.endsWith(`--${boundary}--\r\n`)).toBe(true);
  });

  it('uses a new boundary for every body', () => {
    expect(build({}).body.contentType).not.toBe(build({}).body.contentType);
  });

  it.each<[string, unknown, string[]]>([
    ['a string', 'Ada', ['Ada']],
    ['a number', 42.5, ['42.5']],
    ['a boolean', false, ['false']],
    ['null', null, ['null']],
    ['an array, one part per item', ['a', 1, true], ['a', '1', 'true']],
    ['an empty string', '', ['']],
    ['text with CRLF and a fake boundary', 'line\r\n--aicap-000000000000000000000000--\r\nx', ['line\r\n--aicap-000000000000000000000000--\r\nx']],
  ])('sends %s as text parts a server reads back exactly', async (_case, value, expected) => {
    const form = await build({ field: value }).form();
    expect(form.getAll('field')).toEqual(expected);
  });

  it('sends an object (and an object inside an array) as an application/json part', async () => {
    const { form, raw } = build({ meta: { a: [1, 2] }, list: [{ b: 1 }, 'plain'] });
    const parsed = await form();
    expect(parsed.getAll('meta')).toEqual(['{"a":[1,2]}']);
    expect(parsed.getAll('list')).toEqual(['{"b":1}', 'plain']);
    expect(raw.match(/Content-Type: application\/json/g)).toHaveLength(2);
  });

  it.each<[string, string, Uint8Array]>([
    ['base64', 'iVBORw0KGgo=', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ['base64 broken over lines', 'iVBORw0K\nGgo=', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ['base64url', '-_-_', new Uint8Array([0xfb, 0xff, 0xbf])],
  ])('decodes a file part given as %s to its bytes, named after the field with its declared type', async (_case, value, bytes) => {
    const { form, problems } = build({ image: value }, { image: { type: 'string', content_type: 'image/png' } });
    expect(problems).toEqual([]);
    const file = (await form()).get('image') as File;
    expect(file.name).toBe('image');
    expect(file.type).toBe('image/png');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
  });

  it.each<[string, unknown, string]>([
    ['text/csv text', 'a,b\n1,2', 'a,b\n1,2'],
    ['a JSON object', { a: 1 }, '{"a":1}'],
    ['a JSON string', 'as is', 'as is'],
  ])('sends a %s file part as it is, not base64-decoded', async (type, value, expected) => {
    const contentType = type.startsWith('text/') ? 'text/csv' : 'application/json';
    const file = (await build({ doc: value }, { doc: { type: 'string', content_type: contentType } }).form()).get('doc') as File;
    expect(await file.text()).toBe(expected);
  });

  it('reports every bad field by name and what to pass, instead of stopping at the first', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    const { problems } = build(
      { photo: 'not base64!', scan: 12, loop: cycle, ok: 'fine' },
      { photo: { type: 'string', content_type: 'image/jpeg' }, scan: { type: 'string', content_type: 'application/pdf' } },
    );
    expect(problems).toEqual([
      { name: 'photo', message: 'is a file part (image/jpeg): its value must be base64-encoded bytes' },
      { name: 'scan', message: 'is a file part (application/pdf): pass its bytes as a base64 string' },
      { name: 'loop', message: expect.stringMatching(/circular/i) },
    ]);
  });

  it('percent-encodes quotes and line breaks in a field name, so a name cannot add a header or a part', async () => {
    const hostile = 'x"; filename="evil.sh"\r\nContent-Type: text/x-sh\r\n\r\nrm -rf /';
    const { raw, form } = build({ [hostile]: 'v' });
    expect(raw).not.toContain('filename="evil.sh"');
    expect(raw.match(/Content-Disposition/g)).toHaveLength(1);
    expect(raw).toContain('name="x%22; filename=%22evil.sh%22%0D%0AContent-Type: text/x-sh%0D%0A%0D%0Arm -rf /"');
    expect([...(await form()).keys()]).toHaveLength(1);
  });

  it('ignores a declared content_type with a line break (a header injection) and sends the value as text', () => {
    const { raw } = build({ doc: 'aGk=' }, { doc: { type: 'string', content_type: 'text/plain\r\nX-Injected: 1' } });
    expect(raw).not.toContain('X-Injected');
    expect(raw).not.toContain('filename=');
    expect(raw).toContain('\r\n\r\naGk=\r\n');
  });

  it('writes one text part per pair for a field with a declared style (deepObject), brackets unencoded', async () => {
    const form = await build({ file_link_data: { create: true, expires_at: 1700000000 } }, { file_link_data: { type: 'object', style: 'deepObject' } }).form();
    expect([...form.entries()]).toEqual([
      ['file_link_data[create]', 'true'],
      ['file_link_data[expires_at]', '1700000000'],
    ]);
  });

  it('keeps a prototype key as an ordinary field, not an inherited one', async () => {
    const fields = JSON.parse('{"__proto__": "p", "constructor": "c"}') as Record<string, unknown>;
    const form = await build(fields).form();
    expect([...form.entries()]).toEqual([
      ['__proto__', 'p'],
      ['constructor', 'c'],
    ]);
  });
});
