import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { InspectorSession } from './inspector-session.js';
import { routeInspectorApi } from './route-inspector-api.js';

// The inspector's JSON API with a stand-in session and streams: no server, no socket.

function fakeSession(calls: unknown[][]): InspectorSession {
  const record =
    (name: string) =>
    (...args: unknown[]) => {
      calls.push([name, ...args]);
      if (args[0] === 'boom') throw Object.assign(new Error('tool "boom" is quarantined'), { code: 'TOOL_DISABLED' });
      return { ok: name };
    };
  return {
    view: () => ({ services: 1 }),
    load: record('load'),
    tool: record('tool'),
    call: record('call'),
    startJob: record('startJob'),
    respond: record('respond'),
    select: record('select'),
    scopes: record('scopes'),
    diff: record('diff'),
    subscribe: () => undefined,
  } as unknown as InspectorSession;
}

async function api(method: string, path: string, body?: string | Buffer) {
  const calls: unknown[][] = [];
  const answers: Array<{ status: number; body: unknown }> = [];
  const request = Object.assign(Readable.from(body === undefined ? [] : [typeof body === 'string' ? Buffer.from(body) : body]), { method }) as unknown as IncomingMessage;
  const written: string[] = [];
  const response = { writeHead: () => undefined, write: (text: string) => void written.push(text), end: () => void written.push('<end>'), on: () => undefined } as unknown as ServerResponse;
  await routeInspectorApi({
    request,
    response,
    url: new URL(`http://127.0.0.1:1${path}`),
    session: fakeSession(calls),
    answerJson: (_response, status, answer) => void answers.push({ status, body: answer }),
  });
  return { calls, answers, written };
}

describe('routeInspectorApi', () => {
  it('answers the view under GET', async () => {
    expect((await api('GET', '/api/view')).answers).toEqual([{ status: 200, body: { view: { services: 1 } } }]);
  });

  it('hands each POST route its checked fields', async () => {
    expect((await api('POST', '/api/load', '{"source":"https://api.example.com","token":""}')).calls).toEqual([['load', 'https://api.example.com', {}]]);
    expect((await api('POST', '/api/load', '{"source":"s","token":"t"}')).calls).toEqual([['load', 's', { token: 't' }]]);
    expect((await api('POST', '/api/call', '{"toolId":"pay","arguments":{"amount":1},"approved":"yes"}')).calls).toEqual([['call', 'pay', { amount: 1 }, false]]);
    expect((await api('POST', '/api/scopes', '{"scopes":["read",1,null,"write"]}')).calls).toEqual([['scopes', ['read', 'write']]]);
    expect((await api('POST', '/api/diff', '{"pinned":true}')).calls).toEqual([['diff', { pinned: true }]]);
  });

  it('bounds the select limit between 1 and 50, defaulting to 5', async () => {
    expect((await api('POST', '/api/select', '{"query":"pay","limit":1000}')).calls[0]).toEqual(['select', 'pay', 50]);
    expect((await api('POST', '/api/select', '{"query":"pay","limit":-3}')).calls[0]).toEqual(['select', 'pay', 1]);
    expect((await api('POST', '/api/select', '{"query":"pay","limit":2.9}')).calls[0]).toEqual(['select', 'pay', 2]);
    expect((await api('POST', '/api/select', '{"query":"pay"}')).calls[0]).toEqual(['select', 'pay', 5]);
  });

  it('answers 400 for a body that is not a JSON object, or lacks a required string, without calling the session', async () => {
    for (const body of ['not json', '[1]', 'null', '{"toolId":5}', '']) {
      const { calls, answers } = await api('POST', '/api/tool', body);
      expect(calls).toEqual([]);
      expect(answers[0]?.status).toBe(400);
    }
  });

  it('answers 413 for a body over 16 MiB', async () => {
    const { answers, calls } = await api('POST', '/api/diff', Buffer.alloc(16 * 1_048_576 + 1, 0x20));
    expect(answers[0]?.status).toBe(413);
    expect(calls).toEqual([]);
  });

  it('answers 404 for unknown paths, for GET on an action, and for inherited names', async () => {
    for (const [method, path] of [
      ['GET', '/api/call'],
      ['POST', '/api/nothing'],
      ['POST', '/constructor'],
      ['DELETE', '/api/view'],
    ] as const) {
      expect((await api(method, path, '{}')).answers[0]?.status).toBe(404);
    }
  });

  it('passes a session error on with its code and message, as 400', async () => {
    expect((await api('POST', '/api/tool', '{"toolId":"boom"}')).answers).toEqual([{ status: 400, body: { error: { code: 'TOOL_DISABLED', message: 'tool "boom" is quarantined' } } }]);
  });

  it('ends an event stream for an unknown job at once, with an error event', async () => {
    const { written } = await api('GET', '/api/jobs/events?id=nope');
    expect(written[0]).toContain('"code":"NOT_FOUND"');
    expect(written.at(-1)).toBe('<end>');
  });
});
