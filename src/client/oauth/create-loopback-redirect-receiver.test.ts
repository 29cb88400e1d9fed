import { describe, expect, it } from 'vitest';
import { createLoopbackRedirectReceiver } from './create-loopback-redirect-receiver.js';

describe('createLoopbackRedirectReceiver', () => {
  it('answers other paths 404, resolves with the callback URL and answers it with a plain page', async () => {
    const receiver = await createLoopbackRedirectReceiver({ callbackPath: '/done' });
    try {
      expect(receiver.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/done$/);
      expect((await fetch(new URL('/favicon.ico', receiver.redirectUri))).status).toBe(404);
      const page = await fetch(`${receiver.redirectUri}?code=abc&state=xyz`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await page.text()).toContain('You can close this window');
      expect(await receiver.waitForCallback()).toBe(`${receiver.redirectUri}?code=abc&state=xyz`);
    } finally {
      await receiver.close();
    }
  });

  it('refuses bad options when created', async () => {
    await expect(createLoopbackRedirectReceiver({ callbackPath: 'done' })).rejects.toThrow(/`callbackPath`/);
    await expect(createLoopbackRedirectReceiver({ timeoutInMs: 0 })).rejects.toThrow(/`timeoutInMs`/);
  });
});
