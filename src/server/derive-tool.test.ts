import { describe, expect, it } from 'vitest';
import { validateManifest } from '../manifest/validate-manifest.js';
import { deriveTool, toToolPath, withDerivedTools } from './derive-tool.js';

describe('deriveTool', () => {
  it('derives the path, parameters by location and returns from route schemas', () => {
    const { tool } = deriveTool({
      method: 'post',
      path: '/accounts/:account_id/notes',
      schema: {
        summary: 'Adds a note',
        params: { type: 'object', properties: { account_id: { type: 'string', description: 'The account' } } },
        querystring: { type: 'object', properties: { notify: { type: 'boolean' } } },
        body: { type: 'object', required: ['text'], properties: { text: { type: 'string', maxLength: 500 }, tags: { type: 'array' } } },
        response: { 201: { type: 'object', properties: { note_id: { type: 'string' } } }, 400: { type: 'object' } },
      },
      ai: { id: 'add_note', intent: { when: 'User wants to remember something about an account' } },
    });
    expect(tool).toEqual({
      id: 'add_note',
      method: 'POST',
      path: '/accounts/{account_id}/notes',
      description: 'Adds a note',
      intent: { when: 'User wants to remember something about an account' },
      parameters: {
        account_id: { type: 'string', required: true, in: 'path', description: 'The account', json_schema: { type: 'string', description: 'The account' } },
        notify: { type: 'boolean', required: false, in: 'query', json_schema: { type: 'boolean' } },
        text: { type: 'string', required: true, in: 'body', json_schema: { type: 'string', maxLength: 500 } },
        tags: { type: 'array', required: false, in: 'body', json_schema: { type: 'array' } },
      },
      returns: { type: 'object', schema: { type: 'object', properties: { note_id: { type: 'string' } } } },
    });
  });

  it('names a tool from its method and path when no id is given', () => {
    expect(deriveTool({ method: 'GET', path: '/accounts/:id', ai: { description: 'Reads' } }).tool.id).toBe('get_accounts_id');
  });

  it.each([
    ['OPTIONS', '/a', { description: 'x' }, /method OPTIONS cannot be a tool/],
    ['GET', '/a', {}, /give the tool a `description`/],
  ])('throws for %s %s without what a tool needs', (method, path, ai, message) => {
    expect(() => deriveTool({ method, path, ai })).toThrow(message);
  });
});

describe('withDerivedTools', () => {
  it('adds tools, their scopes and approval to a base manifest that stays valid', () => {
    const manifest = withDerivedTools(
      { schema_version: '0.1.0', service: { name: 'Notes', base_url: 'https://notes.example.com' }, auth: { type: 'api_key', api_key: { in: 'header', name: 'X-Key' } } },
      [
        deriveTool({ method: 'GET', path: '/notes', ai: { id: 'list_notes', description: 'Lists notes', scopes: ['read'] } }),
        deriveTool({ method: 'DELETE', path: '/notes/:note_id', ai: { id: 'delete_note', description: 'Deletes a note', scopes: ['write'], humanApproval: true } }),
      ],
    );
    expect(manifest.auth).toEqual({ type: 'api_key', api_key: { in: 'header', name: 'X-Key' }, scopes: { read: ['list_notes'], write: ['delete_note'] } });
    expect(manifest.policy?.human_approval_required).toEqual(['delete_note']);
    expect(validateManifest(manifest).valid).toBe(true);
  });
});

describe('toToolPath', () => {
  it.each([
    ['/accounts/:account_id/notes', '/accounts/{account_id}/notes', {}, undefined],
    ['/n/:num(^\\d+$)', '/n/{num}', { num: '^\\d+$' }, undefined],
    ['/d/:year(\\d{4})-:month((?:0[1-9]|1[0-2]))', '/d/{year}-{month}', { year: '\\d{4}', month: '(?:0[1-9]|1[0-2])' }, undefined],
    ['/files/*', '/files/{wildcard}', {}, 'wildcard'],
    ['/files/*rest', '/files/{rest}', {}, 'rest'],
    ['/time/12:30', '/time/12:30', {}, undefined],
  ])('%s → %s', (route, path, patterns, wildcard) => {
    expect(toToolPath(route, 'Route GET x')).toEqual({ path, patterns, wildcard });
  });

  it.each([
    ['/files/*/raw', /a wildcard can only end the path/],
    ['/n/:num(\\d+', /parameter :num has no closing parenthesis/],
  ])('refuses %s naming the route', (route, message) => {
    expect(() => toToolPath(route, 'Route GET x')).toThrow(message);
    expect(() => toToolPath(route, 'Route GET x')).toThrow(/^Route GET x: /);
  });
});

describe('withDerivedTools without auth', () => {
  it('refuses scopes when the base declares no auth instead of inventing one', () => {
    const derived = [deriveTool({ method: 'GET', path: '/notes', ai: { id: 'list_notes', description: 'Lists notes', scopes: ['read'] } })];
    expect(() => withDerivedTools({ schema_version: '0.1.0', service: { name: 'Notes', base_url: 'https://notes.example.com' } }, derived)).toThrow(
      /list_notes carry `scopes` but the base manifest declares no `auth`/,
    );
    const unscoped = [deriveTool({ method: 'GET', path: '/notes', ai: { id: 'list_notes', description: 'Lists notes' } })];
    expect(withDerivedTools({ schema_version: '0.1.0', service: { name: 'Notes', base_url: 'https://notes.example.com' } }, unscoped).auth).toBeUndefined();
  });
});
