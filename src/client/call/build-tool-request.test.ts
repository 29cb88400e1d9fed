import { describe, expect, it } from 'vitest';
import { createRedactor } from '../policy/create-redactor.js';
import { buildToolRequest, parameterLocation, type RequestShape } from './build-tool-request.js';
import { InvalidArgumentsError } from './invalid-arguments-error.js';

const base = 'https://api.example.com/v2';

function build(shape: RequestShape, args: Record<string, unknown>, redacted: string[] = []): ReturnType<typeof buildToolRequest> {
  return buildToolRequest({ shape, baseUrl: base, args, redactor: createRedactor({ parameterNames: redacted }) });
}

describe('buildToolRequest', () => {
  it.each([
    ['a {name} placeholder', 'account_id', { type: 'string' as const }, '/a/{account_id}', 'POST' as const, 'path'],
    ['GET', 'q', { type: 'string' as const }, '/a', 'GET' as const, 'query'],
    ['DELETE', 'q', { type: 'string' as const }, '/a', 'DELETE' as const, 'query'],
    ['POST', 'q', { type: 'string' as const }, '/a', 'POST' as const, 'body'],
    ['an explicit in', 'q', { type: 'string' as const, in: 'header' as const }, '/a', 'POST' as const, 'header'],
  ])('places a parameter by default after %s', (_name, name, parameter, path, method, expected) => {
    expect(parameterLocation(name, parameter, path, method)).toBe(expected);
  });

  it('percent-encodes path values so they cannot add segments or a query', () => {
    const request = build({ id: 't', path: '/accounts/{id}/summary', method: 'GET', parameters: { id: { type: 'string' } } }, { id: 'a/b?c=d#e f' });
    expect(request.url.href).toBe(`${base}/accounts/a%2Fb%3Fc%3Dd%23e%20f/summary`);
  });

  it.each(['.', '..', ''])('refuses the path value %j, which would leave the declared path', (value) => {
    expect(() => build({ id: 't', path: '/accounts/{id}/summary', method: 'GET', parameters: { id: { type: 'string' } } }, { id: value })).toThrow(InvalidArgumentsError);
  });

  it.each([
    ['an array', [{ name: 'a' }, { name: 'b' }]],
    ['a scalar', 'plain text'],
    ['an object with a member named like a path parameter', { id: 'not-the-path', body: 'x' }],
  ])('sends the body_parameter value as the whole JSON body: %s', (_kind, value) => {
    const request = build(
      { id: 't', path: '/items/{id}', method: 'PUT', body_parameter: 'body', parameters: { id: { type: 'string' }, body: { type: 'object', in: 'body' } } },
      { id: 'i1', body: value },
    );
    expect(request.url.pathname).toBe('/v2/items/i1');
    expect(JSON.parse(request.body as string)).toEqual(value);
    expect(request.headers.get('content-type')).toBe('application/json');
  });

  it('keeps named body parameters as members of one object when no body_parameter is declared', () => {
    const request = build({ id: 't', path: '/items', method: 'POST', parameters: { body: { type: 'string' }, title: { type: 'string' } } }, { body: 'text', title: 'A' });
    expect(JSON.parse(request.body as string)).toEqual({ body: 'text', title: 'A' });
  });

  it('refuses a declared path that resolves outside base_url', () => {
    expect(() => build({ id: 't', path: '/../admin', method: 'GET' }, {})).toThrow(expect.objectContaining({ code: 'TOOL_DISABLED' }));
  });

  it('repeats query keys for arrays and stringifies scalars', () => {
    const request = build(
      { id: 't', path: '/search', method: 'GET', parameters: { tag: { type: 'array' }, limit: { type: 'integer' }, deep: { type: 'boolean' } } },
      { tag: ['a', 'b c'], limit: 5, deep: false },
    );
    expect(request.url.search).toBe('?tag=a&tag=b%20c&limit=5&deep=false');
  });

  it('writes the query with spaces as %20 and every reserved character encoded, after a query declared in the path and before its fragment', () => {
    const values = { tag: ['a b', 'ü&=+/?#%'], limit: 5, ssn: 'x y' };
    const parameters = { tag: { type: 'array' as const }, limit: { type: 'integer' as const }, ssn: { type: 'string' as const } };
    const query = 'tag=a%20b&tag=%C3%BC%26%3D%2B%2F%3F%23%25&limit=5&ssn=';
    for (const [path, before, after] of [
      ['/search', '/search?', ''],
      ['/search?fixed=%20x+y&z', '/search?fixed=%20x+y&z&', ''],
      ['/search#part', '/search?', '#part'],
    ] as const) {
      const request = build({ id: 't', path, method: 'GET', parameters }, values, ['ssn']);
      expect([request.url.href, request.displayUrl.href]).toEqual([`${base}${before}${query}x%20y${after}`, `${base}${before}${query}%5BREDACTED%5D${after}`]);
    }
  });

  it('sends header and cookie parameters, refusing line breaks in headers', () => {
    const shape: RequestShape = {
      id: 't',
      path: '/a',
      method: 'GET',
      parameters: { 'X-Trace': { type: 'string', in: 'header' }, session: { type: 'string', in: 'cookie' }, theme: { type: 'string', in: 'cookie' } },
    };
    const request = build(shape, { 'X-Trace': 'abc', session: 's 1', theme: 'dark' });
    expect(request.headers.get('x-trace')).toBe('abc');
    expect(request.headers.get('cookie')).toBe('session=s%201; theme=dark');
    expect(() => build(shape, { 'X-Trace': 'a\r\nInjected: 1' })).toThrow(InvalidArgumentsError);
  });

  it('sends body parameters as JSON by default and as a form when declared', () => {
    const shape: RequestShape = { id: 't', path: '/a/{id}', method: 'POST', parameters: { id: { type: 'string' }, amount: { type: 'number' }, tags: { type: 'array' } } };
    const json = build(shape, { id: 'x', amount: 5, tags: ['a', 'b'] });
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(json.body as string)).toEqual({ amount: 5, tags: ['a', 'b'] });
    const form = build({ ...shape, request_content_type: 'application/x-www-form-urlencoded' }, { id: 'x', amount: 5, tags: ['a', 'b'] });
    expect(form.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(form.body).toBe('amount=5&tags=a&tags=b');
  });

  it('sends no body when no body parameter is given', () => {
    const request = build({ id: 't', path: '/a', method: 'POST', parameters: { note: { type: 'string' } } }, {});
    expect(request.body).toBeUndefined();
    expect(request.headers.has('content-type')).toBe(false);
  });

  it('puts body parameters of a GET in the query', () => {
    const request = build({ id: 't', path: '/a', method: 'GET', parameters: { q: { type: 'string', in: 'body' } } }, { q: 'x' });
    expect(request.url.search).toBe('?q=x');
    expect(request.body).toBeUndefined();
  });

  it('sets the agent id and idempotency headers after the parameters, so arguments cannot replace them', () => {
    const request = buildToolRequest({
      shape: { id: 't', path: '/a', method: 'POST', parameters: { 'X-Agent-ID': { type: 'string', in: 'header' } } },
      baseUrl: base,
      args: { 'X-Agent-ID': 'spoofed' },
      redactor: createRedactor(),
      agentIdHeader: { name: 'X-Agent-ID', value: 'agent-1' },
      idempotencyHeader: { name: 'Idempotency-Key', value: 'k-1' },
    });
    expect(request.headers.get('x-agent-id')).toBe('agent-1');
    expect(request.headers.get('idempotency-key')).toBe('k-1');
  });

  it('asks for the declared response type', () => {
    expect(build({ id: 't', path: '/a', method: 'GET' }, {}).headers.get('accept')).toBe('application/json, application/problem+json;q=0.9');
    expect(build({ id: 't', path: '/a', method: 'GET', returns: { content_type: 'text/csv' } }, {}).headers.get('accept')).toBe('text/csv, application/problem+json;q=0.9');
  });

  it('hides redacted values in the display URL only', () => {
    const request = build({ id: 't', path: '/accounts/{account_id}', method: 'GET', parameters: { account_id: { type: 'string' }, ssn: { type: 'string' } } }, { account_id: 'acc-9', ssn: '123-45' }, [
      'account_id',
      'ssn',
    ]);
    expect(request.url.href).toBe(`${base}/accounts/acc-9?ssn=123-45`);
    expect(request.displayUrl.href).toBe(`${base}/accounts/[REDACTED]?ssn=%5BREDACTED%5D`);
  });

  it('refuses a service whose consumer requirements aicap cannot meet', () => {
    expect(() =>
      buildToolRequest({
        shape: { id: 't', path: '/a', method: 'GET' },
        baseUrl: base,
        args: {},
        redactor: createRedactor(),
        consumerRequirements: { content_types: ['application/json', 'application/msgpack'] },
      }),
    ).toThrow(/application\/msgpack/);
  });

  it('writes form bodies as OpenAPI and Stripe read them: objects as a[b]=c, arrays of objects as a[0][b]=c, spaces as %20, never JSON text', () => {
    const shape: RequestShape = {
      id: 't',
      path: '/skus',
      method: 'POST',
      request_content_type: 'application/x-www-form-urlencoded',
      parameters: {
        inventory: { type: 'object' },
        items: { type: 'array', style: 'deepObject', explode: true },
        expand: { type: 'array', style: 'deepObject', explode: true },
        tags: { type: 'array' },
        note: { type: 'string' },
        raw: { type: 'object', content_type: 'application/json' },
      },
    };
    const request = build(shape, { inventory: { type: 'infinite' }, items: [{ price: 'p 1', quantity: 2 }], expand: ['a'], tags: ['x', 'y'], note: 'two words', raw: { k: 1 } });
    expect(request.body).toBe('inventory[type]=infinite&items[0][price]=p%201&items[0][quantity]=2&expand[0]=a&tags=x&tags=y&note=two%20words&raw=%7B%22k%22%3A1%7D');
  });

  it('refuses an empty array in a form body with a problem naming it, instead of sending a body without it', () => {
    const shape: RequestShape = {
      id: 't',
      path: '/links',
      method: 'POST',
      request_content_type: 'application/x-www-form-urlencoded',
      parameters: { line_items: { type: 'array', style: 'deepObject', explode: true } },
    };
    expect(() => build(shape, { line_items: [] })).toThrow(
      expect.objectContaining({ problems: [expect.objectContaining({ pointer: '/line_items', message: expect.stringContaining('empty array') })] }),
    );
  });

  it('serialises query objects with their declared style: deepObject brackets, or form members', () => {
    const shape: RequestShape = {
      id: 't',
      path: '/charges',
      method: 'GET',
      parameters: { created: { type: 'object', style: 'deepObject', explode: true }, point: { type: 'object' }, ids: { type: 'array', style: 'form', explode: false } },
    };
    expect(build(shape, { created: { gt: 5, lte: 9 }, point: { x: 1 }, ids: ['a', 'b'] }).url.search).toBe('?created[gt]=5&created[lte]=9&x=1&ids=a,b');
  });

  it('writes path parameters in their declared style', () => {
    const shape: RequestShape = {
      id: 't',
      path: '/items/{ids}/{filter}',
      method: 'GET',
      parameters: { ids: { type: 'array', in: 'path', required: true }, filter: { type: 'object', in: 'path', required: true, style: 'matrix', explode: true } },
    };
    expect(build(shape, { ids: ['a', 'b c'], filter: { x: 1 } }).url.pathname).toBe('/v2/items/a,b%20c/;x=1');
  });

  it('builds a multipart body with text fields, JSON parts and a file part decoded from base64', () => {
    const shape: RequestShape = {
      id: 't',
      path: '/files',
      method: 'POST',
      request_content_type: 'multipart/form-data',
      parameters: { purpose: { type: 'string' }, file: { type: 'string', content_type: 'image/png' }, meta: { type: 'object' } },
    };
    const request = build(shape, { purpose: 'logo', file: Buffer.from([0, 1, 2, 255]).toString('base64'), meta: { a: 1 } });
    const contentType = request.headers.get('content-type')!;
    const boundary = /boundary=(.+)$/.exec(contentType)![1]!;
    const text = Buffer.from(request.body as Uint8Array).toString('latin1');
    expect(text.split(`--${boundary}`)).toEqual([
      '',
      '\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nlogo\r\n',
      '\r\nContent-Disposition: form-data; name="file"; filename="file"\r\nContent-Type: image/png\r\n\r\n\u0000\u0001\u0002\u00ff\r\n',
      '\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n',
      '--\r\n',
    ]);
    const styled = build({ ...shape, parameters: { link: { type: 'object', style: 'deepObject', explode: true } } }, { link: { create: true, expires_at: 5 } });
    expect(Buffer.from(styled.body as Uint8Array).toString('latin1')).toMatch(/name="link\[create\]"\r\n\r\ntrue\r\n[^]*name="link\[expires_at\]"\r\n\r\n5\r\n/);
    expect(() => build(shape, { file: 'not base64!' })).toThrow(expect.objectContaining({ problems: [expect.objectContaining({ pointer: '/file', message: expect.stringContaining('base64') })] }));
  });
});
