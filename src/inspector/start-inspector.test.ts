import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { inspectedManifest, writeManifestFile } from '../../test/helpers/inspector-manifest.js';
import { startInspector, type Inspector } from './start-inspector.js';

// The inspector's own server on 127.0.0.1:0: the token handshake, the headers every answer carries,
// and hostile manifest text reaching the page as JSON data only. The page is tested in Chromium
// (test/e2e/inspector-browser.test.ts); the API's routes beside route-inspector-api.ts.

const HOSTILE = '<img src=x onerror="alert(1)"></script><script>alert(2)</script>\u202Egnp.exe';

const running: Inspector[] = [];
const removals: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const inspector of running.splice(0)) await inspector.close();
  for (const remove of removals.splice(0)) await remove();
});

async function start(source?: unknown): Promise<Inspector> {
  let path: string | undefined;
  if (source !== undefined) {
    const file = await writeManifestFile(source);
    removals.push(file.remove);
    path = file.path;
  }
  const inspector = await startInspector({ timeoutInMs: 1_000, ...(path ? { source: path } : {}) });
  running.push(inspector);
  return inspector;
}

/** The session cookie the first page load sets. */
async function cookieOf(inspector: Inspector): Promise<string> {
  const response = await fetch(inspector.url, { redirect: 'manual' });
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

/** A GET with a Host header of one's choosing (fetch does not let a caller set it). */
function getWithHost(inspector: Inspector, host: string): Promise<{ status: number; body: string }> {
  const url = new URL(inspector.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port: url.port, path: `/${url.search}`, headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('startInspector', () => {
  it('listens on 127.0.0.1 and gives a URL that carries a fresh random token', async () => {
    const [first, second] = [await start(), await start()];
    expect(first.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const token = new URL(first.url).searchParams.get('token');
    expect(token).toMatch(/^[\w-]{32}$/);
    expect(new URL(second.url).searchParams.get('token')).not.toBe(token);
  });

  it('moves the token from the address bar into a strict, HTTP-only cookie on the first load', async () => {
    const inspector = await start();
    const response = await fetch(inspector.url, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toContain(`=${new URL(inspector.url).searchParams.get('token')}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
  });

  it.each([
    ['/', 'text/html; charset=utf-8'],
    ['/app.js', 'text/javascript; charset=utf-8'],
    ['/app.css', 'text/css; charset=utf-8'],
  ])('serves %s with the cookie, and with a policy that loads and runs nothing from elsewhere', async (path, type) => {
    const inspector = await start();
    const response = await fetch(`${inspector.origin}${path}`, { headers: { cookie: await cookieOf(inspector) } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect((await response.text()).length).toBeGreaterThan(0);
  });

  it.each([
    ['no token', '', 403],
    ['a wrong token', '?token=not-the-token', 403],
  ])('refuses a page request with %s', async (_, query, status) => {
    const inspector = await start();
    const response = await fetch(`${inspector.origin}/${query}`, { redirect: 'manual' });
    expect(response.status).toBe(status);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.text()).toMatch(/token/);
  });

  it('refuses a request whose Host is another name (DNS rebinding), even with the token', async () => {
    const inspector = await start();
    const answer = await getWithHost(inspector, 'evil.example:80');
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('"evil.example:80"');
  });

  it('answers an unknown page with 404 as JSON, and the favicon with 204', async () => {
    const inspector = await start();
    const cookie = await cookieOf(inspector);
    const missing = await fetch(`${inspector.origin}/admin`, { headers: { cookie } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No page at /admin.' } });
    expect((await fetch(`${inspector.origin}/favicon.ico`, { headers: { cookie } })).status).toBe(204);
  });

  it('loads the source given before the first page view, and hands hostile manifest text to the page as JSON data only', async () => {
    const manifest = inspectedManifest();
    (manifest['service'] as Record<string, unknown>)['description'] = HOSTILE;
    const inspector = await start(manifest);
    const response = await fetch(`${inspector.origin}/api/view`, { headers: { cookie: await cookieOf(inspector) } });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const { view } = (await response.json()) as { view: { manifest: { service: { description: string } } } };
    expect(view.manifest.service.description).toBe(HOSTILE);
  });

  it('answers /api/view with a null view before anything is loaded', async () => {
    const inspector = await start();
    const response = await fetch(`${inspector.origin}/api/view`, { headers: { cookie: await cookieOf(inspector) } });
    expect(await response.json()).toEqual({ view: null });
  });

  it('refuses an action that is not a JSON POST (a cross-site form cannot send one)', async () => {
    const inspector = await start();
    const response = await fetch(`${inspector.origin}/api/load`, { method: 'POST', headers: { cookie: await cookieOf(inspector), 'content-type': 'text/plain' }, body: '{"source":"/etc/passwd"}' });
    expect(response.status).toBe(415);
    expect(inspector.session.view()).toBeUndefined();
  });

  it('stops listening on close', async () => {
    const inspector = await start();
    await inspector.close();
    running.splice(running.indexOf(inspector), 1);
    await expect(fetch(inspector.url)).rejects.toThrow();
  });
});
