/**
 * True for names that always mean this machine: `localhost` (and its subdomains, RFC 6761), the IPv4
 * loopback range 127.0.0.0/8 and `::1`. Accepts the bracketed IPv6 form that `URL#hostname` returns.
 */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
