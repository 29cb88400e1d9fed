import { describe, expect, it } from 'vitest';
import { isLoopbackHostname } from './is-loopback-hostname.js';

describe('isLoopbackHostname', () => {
  it.each(['localhost', 'LOCALHOST', 'localhost.', 'api.localhost', '127.0.0.1', '127.255.0.9', '[::1]', '::1', '[0:0:0:0:0:0:0:1]'])('%s is loopback', (host) => {
    expect(isLoopbackHostname(host)).toBe(true);
  });

  it.each(['example.com', 'localhost.example.com', 'mylocalhost', '128.0.0.1', '10.0.0.1', '0.0.0.0', '[::]', '[::ffff:127.0.0.1]', '127.0.0.1.nip.io', '169.254.169.254'])(
    '%s is not loopback',
    (host) => {
      expect(isLoopbackHostname(host)).toBe(false);
    },
  );
});
