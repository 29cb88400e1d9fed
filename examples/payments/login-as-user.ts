/**
 * Plays a user's browser against the Payments authorization server, for tests: follows the redirects
 * of an authorization URL, carries the cookies by hand, posts the login form and then the consent
 * form, and stops at the redirect back to the client (its loopback redirect URI), without fetching it.
 * @module
 */

/** Options of {@link loginAsUser}. */
export interface LoginAsUserOptions {
  /** The authorization request URL the client built (`/oauth/authorize?...`). */
  authorizationUrl: string | URL;
  /** A demo user (`alice`, `bob`). */
  user: string;
  password: string;
  /** Allow (`true`) or deny (`false`) on the consent page. @default true */
  consent?: boolean;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Pages and redirects followed before giving up. @default 20 */
  maxSteps?: number;
}

interface Step {
  url: URL;
  method: 'GET' | 'POST';
  form?: Record<string, string>;
}

/**
 * Resolves to the URL the authorization server finally redirects to on another origin: the client's
 * redirect URI with `code`, `state` and `iss`, or with `error=access_denied` when consent is refused.
 * Rejects when the login is refused or a page is not what a user would see.
 * @example
 * ```ts
 * const callbackUrl = await loginAsUser({ authorizationUrl, user: 'alice', password: 'alice-password' });
 * const code = new URL(callbackUrl).searchParams.get('code');
 * ```
 */
export async function loginAsUser(options: LoginAsUserOptions): Promise<string> {
  const fetchImplementation = options.fetch ?? globalThis.fetch;
  const cookies = new Map<string, string>();
  const start = new URL(options.authorizationUrl);
  let step: Step = { url: start, method: 'GET' };
  let loggedIn = false;
  for (let count = 0; count < (options.maxSteps ?? 20); count++) {
    const response = await fetchImplementation(step.url, {
      method: step.method,
      redirect: 'manual',
      headers: {
        ...(cookies.size === 0 ? {} : { Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') }),
        ...(step.form === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }),
      },
      ...(step.form === undefined ? {} : { body: new URLSearchParams(step.form).toString() }),
    });
    keepCookies(cookies, response.headers.getSetCookie());
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      const next = new URL(location, step.url);
      if (next.origin !== start.origin) return next.href;
      step = { url: next, method: 'GET' };
      continue;
    }
    const html = await response.text();
    const actions = formActions(html, step.url);
    if (actions.login !== undefined) {
      if (loggedIn) throw new Error(`loginAsUser: the authorization server refused the login of ${JSON.stringify(options.user)} (${response.status}): ${alertText(html)}`);
      loggedIn = true;
      step = { url: actions.login, method: 'POST', form: { username: options.user, password: options.password } };
    } else if (actions.confirm !== undefined && actions.abort !== undefined) {
      step = (options.consent ?? true) ? { url: actions.confirm, method: 'POST', form: { consent: 'yes' } } : { url: actions.abort, method: 'POST', form: {} };
    } else {
      throw new Error(`loginAsUser: ${step.method} ${step.url.href} answered ${response.status} with neither a login nor a consent form: ${alertText(html)}`);
    }
  }
  throw new Error(`loginAsUser: no redirect back to the client after ${options.maxSteps ?? 20} steps from ${start.href}.`);
}

function keepCookies(cookies: Map<string, string>, setCookies: readonly string[]): void {
  for (const header of setCookies) {
    const [pair = '', ...attributes] = header.split(';');
    const separator = pair.indexOf('=');
    if (separator <= 0) continue;
    const name = pair.slice(0, separator).trim();
    const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute) || (/^\s*expires=/i.test(attribute) && Date.parse(attribute.split('=')[1] ?? '') <= Date.now()));
    if (expired) cookies.delete(name);
    else cookies.set(name, pair.slice(separator + 1).trim());
  }
}

function formActions(html: string, base: URL): { login?: URL; confirm?: URL; abort?: URL } {
  const found: { login?: URL; confirm?: URL; abort?: URL } = {};
  for (const match of html.matchAll(/<form\b[^>]*\baction="([^"]+)"[^>]*>([\s\S]*?)<\/form>/gi)) {
    const action = new URL(match[1]!.replaceAll('&amp;', '&'), base);
    if (/\bname="password"/.test(match[2]!)) found.login = action;
    else if (action.pathname.endsWith('/confirm')) found.confirm = action;
    else if (action.pathname.endsWith('/abort')) found.abort = action;
  }
  return found;
}

function alertText(html: string): string {
  const alert = /<p role="alert">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? html.replace(/<[^>]+>/g, ' ');
  return alert.replace(/\s+/g, ' ').trim().slice(0, 200);
}
