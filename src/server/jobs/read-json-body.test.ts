import { describe, expect, it } from 'vitest';
import { readJsonBody } from './read-json-body.js';

const post = (body: string, contentType = 'application/json'): Request => new Request('http://localhost/', { method: 'POST', headers: { 'Content-Type': contentType }, body });

describe('readJsonBody', () => {
  it('parses application/json and +json bodies', async () => {
    expect(await readJsonBody(post('{"answer":1}'), 100)).toEqual({ answer: 1 });
    expect(await readJsonBody(post('[1]', 'application/merge-patch+json; charset=utf-8'), 100)).toEqual([1]);
  });

  it.each([
    ['a text body', post('a', 'text/plain'), 415, 'unsupported_media_type'],
    ['a body over the limit', post(JSON.stringify({ padding: 'x'.repeat(200) })), 413, 'body_too_large'],
    ['broken JSON', post('{'), 400, 'invalid_json'],
  ])('answers %s with a problem', async (_name, request, status, code) => {
    const answer = await readJsonBody(request, 100);
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(status);
    expect(((await (answer as Response).json()) as { code: string }).code).toBe(code);
  });
});
