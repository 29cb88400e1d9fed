import { describe, expect, it } from 'vitest';
import { AicapError } from '../errors/aicap-error.js';
import { NetworkError } from '../errors/network-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { cliErrorMessage } from './cli-error-message.js';
import { createClient, OriginMismatchError, ResponseTooLargeError } from '../client/index.js';

function socketError(code: string): Error {
  // The shape undici's fetch rejects with: TypeError('fetch failed') caused by the socket error.
  return new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) });
}

describe('cliErrorMessage', () => {
  it('says that nothing is listening for a refused connection', () => {
    const error = new NetworkError({ method: 'GET', url: 'http://127.0.0.1:3917/.well-known/ai-capabilities', cause: socketError('ECONNREFUSED') });
    expect(cliErrorMessage(error)).toBe(
      'Nothing is listening on 127.0.0.1:3917 (connection refused): is the server running, and on that port? (GET http://127.0.0.1:3917/.well-known/ai-capabilities)',
    );
  });

  it('says that the name does not resolve for a DNS failure', () => {
    const error = new NetworkError({ method: 'GET', url: 'https://api.example.invalid/.well-known/ai-capabilities', cause: socketError('ENOTFOUND') });
    expect(cliErrorMessage(error)).toMatch(/^Cannot resolve api\.example\.invalid: check the host name/);
  });

  it('finds the socket error inside an AggregateError (one per address tried)', () => {
    const cause = new TypeError('fetch failed', { cause: new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]) });
    expect(cliErrorMessage(new NetworkError({ method: 'GET', url: 'http://localhost:9/', cause }))).toMatch(/^Nothing is listening on localhost:9/);
  });

  it('keeps other network errors as they are', () => {
    const error = new NetworkError({ method: 'GET', url: 'http://127.0.0.1:1/', cause: new Error('other') });
    expect(cliErrorMessage(error)).toBe('Network error (other): GET http://127.0.0.1:1/');
  });

  it('names the <origin> argument and the scheme to add when an origin is not an absolute URL', async () => {
    const client = createClient({ agentId: 'test' });
    const rejection = async (given: string) =>
      cliErrorMessage(
        await client.discover(given).then(
          () => undefined,
          (error: unknown) => error,
        ),
      );
    expect(await rejection('127.0.0.1:3917')).toBe('The <origin> argument must be an absolute URL such as https://api.example.com, got "127.0.0.1:3917": add the scheme, http://127.0.0.1:3917.');
    expect(await rejection('api.example.com')).toBe(
      'The <origin> argument must be an absolute URL such as https://api.example.com, got "api.example.com": add the scheme, https://api.example.com (or http://api.example.com for a plain-HTTP server).',
    );
    expect(await rejection('not a url')).toBe('The <origin> argument must be an absolute URL such as https://api.example.com, got "not a url".');
  });

  it('names the flag instead of the library option, from the terms the error carries', () => {
    const timeout = new TimeoutError({ phase: 'headers', timeoutInMs: 30_000, method: 'POST', url: 'http://127.0.0.1:1/slow', option: 'network.timeouts.headersInMs' });
    expect(timeout.option).toBe('network.timeouts.headersInMs');
    expect(cliErrorMessage(timeout)).toContain('Raise `--timeout <ms>`');
    expect(cliErrorMessage(timeout)).not.toContain('network.timeouts');
    const tooLarge = new ResponseTooLargeError({ maxSizeInBytes: 5, method: 'GET', url: 'http://x/', option: 'network.maxResponseSizeInBytes' });
    expect(tooLarge.option).toBe('network.maxResponseSizeInBytes');
    expect(cliErrorMessage(tooLarge)).toContain('Raise `--max-size <bytes>`');
    // A message whose advice is not carried as a term is printed as it is: nothing is guessed from its English.
    expect(cliErrorMessage(new AicapError('RESPONSE_TOO_LARGE', 'Shrink it or raise `discovery.maxManifestSizeInBytes`.'))).toBe('Shrink it or raise `discovery.maxManifestSizeInBytes`.');
  });

  it('adds the localhost/127.0.0.1 hint to an origin mismatch between the two', () => {
    const error = new OriginMismatchError({ manifestOrigin: 'http://localhost:3000', baseUrl: 'http://127.0.0.1:3000', reason: 'different origin' });
    expect(error.option).toBe('trust.allowedOrigins');
    const message = cliErrorMessage(error);
    expect(message).toContain('allow it with `--allow-origin <origin>`');
    expect(message).not.toContain('trust.allowedOrigins');
    expect(message).toContain('localhost and 127.0.0.1 are different origins');
  });

  it('escapes what the message quotes from the network', () => {
    expect(cliErrorMessage(new Error('bad name "\u001b]8;;http://x\u0007"'))).toBe('bad name "\\u001b]8;;http://x\\u0007"');
  });
});
