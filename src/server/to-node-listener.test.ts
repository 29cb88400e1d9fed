import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../manifest/manifest-v0.js';
import { createManifestHandler, type ManifestHandler } from './create-manifest-handler.js';
import { listen, type RunningServer } from '../../test/helpers/start-framework-server.js';
import { toNodeListener } from './to-node-listener.js';

const manifest = JSON.parse(readFileSync(new URL('../../examples/payments/payments.manifest.json', import.meta.url), 'utf8')) as Manifest;

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function serve(handler: ManifestHandler): Promise<string> {
  const started = await listen(createServer(toNodeListener(handler)));
  running.push(started);
  return new URL(started.origin).host;
}

/** Sends the request target exactly as given (fetch would normalize it first). */
function sendRaw(host: string, target: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const [hostname, port] = host.split(':') as [string, string];
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ hostname, port: Number(port), path: target, headers, timeout: 5_000 }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`No answer to GET ${target} within 5 s.`)));
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('toNodeListener with a manifest handler', () => {
  it.each<[string, number]>([
    ['/.well-known/ai-capabilities', 200],
    ['/.well-known/ai-capabilities?format=json', 200],
    ['/tools/../.well-known/ai-capabilities', 200],
    ['/.well-known/./ai-capabilities', 200],
    ['/.well-known/ai-capabilities/', 404],
    ['/.well-known/AI-capabilities', 404],
    ['/other', 404],
  ])('matches the request target %s as the URL parser does (%i)', async (target, status) => {
    const host = await serve(createManifestHandler({ manifest }));
    const answer = await sendRaw(host, target);
    expect(answer.status).toBe(status);
    if (status === 404) expect(answer.headers['content-type']).toBe('application/problem+json');
    else expect(JSON.parse(answer.body)).toMatchObject({ service: { name: manifest.service.name } });
  });

  it('holds requests that arrive before `load` settles and answers them once it has', async () => {
    let resolve: (value: Manifest) => void = () => undefined;
    const host = await serve(createManifestHandler({ load: () => new Promise<Manifest>((done) => (resolve = done)) }));
    const pending = sendRaw(host, '/.well-known/ai-capabilities');
    await new Promise((done) => setTimeout(done, 20));
    resolve(manifest);
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
  });

  it('answers 500 problem JSON, without the cause, when `load` failed', async () => {
    const handler = createManifestHandler({ load: () => Promise.reject(new Error('secret database error')) });
    await expect(handler.ready).rejects.toThrow();
    const answer = await sendRaw(await serve(handler), '/.well-known/ai-capabilities');
    expect(answer.status).toBe(500);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.body).not.toContain('secret');
  });

  it('hands `resolveScopes` a Web Request with the client URL and headers', async () => {
    const seen: Array<{ url: string; authorization: string | null }> = [];
    const handler = createManifestHandler({
      manifest,
      resolveScopes: (request) => {
        seen.push({ url: new URL(request.url).pathname + new URL(request.url).search, authorization: request.headers.get('Authorization') });
        return request.headers.get('Authorization') === 'Bearer reader' ? ['read'] : undefined;
      },
    });
    const answer = await sendRaw(await serve(handler), '/.well-known/ai-capabilities?v=1', { Authorization: 'Bearer reader' });
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as Manifest).tools.map((tool) => tool.id)).toEqual(['analyze_transactions', 'list_transactions', 'generate_report']);
    expect(seen).toEqual([{ url: '/.well-known/ai-capabilities?v=1', authorization: 'Bearer reader' }]);
  });
});
