/**
 * Plays a user's browser against the Payments authorization server, for tests: follows the redirects
 * of an authorization URL, carries the cookies by hand, posts the login form and then the consent
 * form, and stops at the redirect back to the client (its loopback redirect URI), without fetching it.
 * `approveDevice` does the same for the device grant, from its verification URI to the success page.
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

/** Options of {@link approveDevice}. */
export interface ApproveDeviceOptions extends Omit<LoginAsUserOptions, 'authorizationUrl'> {
  /** `verification_uri_complete` of the device authorization response (RFC 8628 §3.2). */
  verificationUri: string | URL;
}

interface Step {
  url: URL;
  method: 'GET' | 'POST';
  form?: Record<string, string>;
}

/** Where the user's walk ended: a redirect to another origin, or a page of the server that has no form to post. */
type Outcome = { redirect: string } | { page: string; url: string };

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
  const outcome = await walkAsUser(new URL(options.authorizationUrl), options);
  if ('redirect' in outcome) return outcome.redirect;
  throw new Error(`loginAsUser: ${outcome.url} ended on a page without a redirect back to the client (${outcome.page}).`);
}

/**
 * Approves (or, with `consent: false`, cancels) a device authorization as its user: opens the
 * verification URI, confirms the code, logs in and consents. Resolves to `approved` when the server
 * shows its success page, `denied` otherwise; the device's token request then succeeds or fails.
 * @example
 * ```ts
 * await approveDevice({ verificationUri: device.verification_uri_complete, user: 'alice', password: 'alice-password' });
 * ```
 */
export async function approveDevice(options: ApproveDeviceOptions): Promise<'approved' | 'denied'> {
  const outcome = await walkAsUser(new URL(options.verificationUri), options);
  if ('page' in outcome) return outcome.page === 'device-done' ? 'approved' : 'denied';
  throw new Error(`approveDevice: the device flow redirected to ${outcome.redirect} instead of ending on the server.`);
}

async function walkAsUser(start: URL, options: Omit<LoginAsUserOptions, 'authorizationUrl'>): Promise<Outcome> {
  const fetchImplementation = options.fetch ?? globalThis.fetch;
  const cookies = new Map<string, string>();
  let step: Step = { url: start, method: 'GET' };
  let loggedIn = false;
  let confirmed = false;
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
      if (next.origin !== start.origin) return { redirect: next.href };
      step = { url: next, method: 'GET' };
      continue;
    }
    const html = await response.text();
    const forms = readForms(html, step.url);
    const pageName = /data-page="([^"]+)"/.exec(html)?.[1];
    if (forms.autoSubmit !== undefined) {
      // A page that a browser with JavaScript posts on load (the provider's form_post-style hop).
      step = { url: forms.autoSubmit.action, method: 'POST', form: forms.autoSubmit.fields };
    } else if (forms.login !== undefined) {
      if (loggedIn) throw new Error(`The authorization server refused the login of ${JSON.stringify(options.user)} (${response.status}): ${alertText(html)}`);
      loggedIn = true;
      step = { url: forms.login, method: 'POST', form: { username: options.user, password: options.password } };
    } else if (forms.confirm !== undefined && forms.abort !== undefined) {
      step = (options.consent ?? true) ? { url: forms.confirm, method: 'POST', form: { consent: 'yes' } } : { url: forms.abort, method: 'POST', form: {} };
    } else if (forms.device !== undefined && !confirmed) {
      confirmed = true;
      step = { url: forms.device.action, method: 'POST', form: { ...forms.device.fields, ...((options.consent ?? true) ? {} : { abort: 'yes' }) } };
    } else if (pageName !== undefined && pageName !== 'device-confirm') {
      return { page: pageName, url: step.url.href };
    } else {
      throw new Error(`${step.method} ${step.url.href} answered ${response.status} with no form a user would post: ${alertText(html)}`);
    }
  }
  throw new Error(`no end after ${options.maxSteps ?? 20} pages and redirects from ${start.href}.`);
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

interface Forms {
  login?: URL;
  confirm?: URL;
  abort?: URL;
  /** The device confirmation: its action and hidden fields (code, CSRF token, `confirm`). */
  device?: { action: URL; fields: Record<string, string> };
  /** The first form, when the page submits it by script as soon as it loads. */
  autoSubmit?: { action: URL; fields: Record<string, string> };
}

function readForms(html: string, base: URL): Forms {
  const found: Forms = {};
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const attributes = match[1]!;
    const action = /\baction="([^"]+)"/.exec(attributes)?.[1];
    if (action === undefined) continue;
    const url = new URL(action.replaceAll('&amp;', '&'), base);
    if (found.autoSubmit === undefined && /document\.forms\[0\]\.submit\(\)/.test(html)) {
      found.autoSubmit = { action: url, fields: hiddenFields(match[2]!) };
      return found;
    }
    if (/\bname="password"/.test(match[2]!)) found.login = url;
    else if (/\bid="op\.deviceConfirmForm"/.test(attributes)) found.device = { action: url, fields: hiddenFields(match[2]!) };
    else if (url.pathname.endsWith('/confirm')) found.confirm = url;
    else if (url.pathname.endsWith('/abort')) found.abort = url;
  }
  return found;
}

function hiddenFields(formHtml: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const input of formHtml.matchAll(/<input\b[^>]*>/gi)) {
    const name = /\bname="([^"]*)"/.exec(input[0])?.[1];
    const value = /\bvalue="([^"]*)"/.exec(input[0])?.[1];
    if (/\btype="hidden"/.test(input[0]) && name !== undefined) fields[name] = (value ?? '').replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'");
  }
  return fields;
}

function alertText(html: string): string {
  const alert = /<p role="alert">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? html.replace(/<[^>]+>/g, ' ');
  return alert.replace(/\s+/g, ' ').trim().slice(0, 200);
}
