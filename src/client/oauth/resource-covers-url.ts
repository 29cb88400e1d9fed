/**
 * True when `url` lies under the protected resource `resource` (RFC 9728 / RFC 8707 resource
 * identifier): same origin, and the resource's path is the URL's path or one of its parent segments
 * (`https://h/alice` covers `https://h/alice` and `https://h/alice/v1`, not `https://h/alicex` nor
 * `https://h/mallory`; `https://h` covers the whole origin). A resource with a query or a fragment
 * covers nothing but itself. A user's token goes only to APIs its resource covers, so that a manifest
 * on a shared origin cannot name another API's resource and receive that API's token.
 * @internal
 */
export function resourceCoversUrl(resource: string, url: string): boolean {
  let resourceUrl: URL;
  let target: URL;
  try {
    resourceUrl = new URL(resource);
    target = new URL(url);
  } catch {
    return false;
  }
  if (resourceUrl.origin !== target.origin) return false;
  if (resourceUrl.search !== '' || resourceUrl.hash !== '') return resourceUrl.href === target.href;
  const prefix = resourceUrl.pathname.replace(/\/+$/, '');
  const path = target.pathname.replace(/\/+$/, '');
  return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
}
