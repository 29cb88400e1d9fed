import { describe, expect, it } from 'vitest';
import { createClient } from './create-client.js';

describe('createClient', () => {
  it.each([
    [{ trust: { allowedOrigins: ['not a url'] } }, '`trust.allowedOrigins`'],
    [{ trust: { allowedOrigins: ['ftp://files.example.com'] } }, '`trust.allowedOrigins`'],
    [{ network: { allow: ['10.0.0.0/99'] } }, '`network.allow`'],
    [{ network: { maxRedirects: 50 } }, '`network.maxRedirects`'],
    [{ network: { timeouts: { connectInMs: -1 } } }, '`network.timeouts.connectInMs`'],
    [{ discovery: { maxManifestSizeInBytes: -5 } }, '`discovery.maxManifestSizeInBytes`'],
    [{ discovery: { maxRedirects: 21 } }, '`discovery.maxRedirects`'],
  ])('throws INVALID_OPTION at creation for %j', (options, name) => {
    expect(() => createClient(options)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining(name) }));
  });

  it('refuses an unknown event name', () => {
    const client = createClient();
    expect(() => client.on('update' as 'change', () => undefined)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('`client.on`') }));
  });

  it('refuses a discovery target that is not a URL, naming the method', async () => {
    const client = createClient();
    await expect(client.discover('api.example.com')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('`discover`') });
    await client.close();
    await client.close();
  });
});
