/**
 * The login and consent pages of the example's authorization server, on its own routes
 * (`/oauth/interaction/<uid>`), through `oidc-provider`'s interaction API. Plain HTML forms, so a test
 * plays the browser by posting them (see `login-as-user.ts`). A user may grant only the scopes listed
 * for them; asking for more ends the authorization with `access_denied`.
 * @module
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRouter } from './create-router.js';
import type { OidcInteractionDetails, OidcProvider } from './oidc-provider-types.js';
import { readRequestBody, RequestBodyError } from './read-request-body.js';
import { sendText } from './send-problem.js';

/** A demo user of the authorization server: password and the scopes the user may grant. */
export interface DemoUser {
  password: string;
  scopes: readonly string[];
}

/** The demo users: `alice` may grant every scope, `bob` only `read`. */
export const DEMO_USERS: Readonly<Record<string, DemoUser>> = {
  alice: { password: 'alice-password', scopes: ['read', 'admin'] },
  bob: { password: 'bob-password', scopes: ['read'] },
};

/** Options of {@link createInteractionRoutes}. */
export interface CreateInteractionRoutesOptions {
  provider: OidcProvider;
  users: Readonly<Record<string, DemoUser>>;
  /** The API's resource indicator, whose scopes the consent page lists. */
  resource: string;
}

/** Serves the interaction routes; resolves to `false` for any other request. */
export type InteractionListener = (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<boolean>;

interface InteractionRequest {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
  options: CreateInteractionRoutesOptions;
}

const FORM_LIMIT_IN_BYTES = 8 * 1024;

/** Creates the login and consent routes. */
export function createInteractionRoutes(options: CreateInteractionRoutesOptions): InteractionListener {
  const routes = createRouter<InteractionRequest>()
    .add('GET', '/oauth/interaction/:uid', showInteraction)
    .add('POST', '/oauth/interaction/:uid/login', submitLogin)
    .add('POST', '/oauth/interaction/:uid/confirm', submitConsent)
    .add('POST', '/oauth/interaction/:uid/abort', abortInteraction);
  return async (incoming, outgoing) => {
    const found = routes.find(incoming.method ?? 'GET', new URL(incoming.url ?? '/', 'http://localhost').pathname);
    if (!found) return false;
    try {
      await found.handler({ incoming, outgoing, options }, found.params);
    } catch (error) {
      // An expired or foreign interaction (no cookie, another uid) or an unreadable form.
      const status = error instanceof RequestBodyError ? error.status : 400;
      if (!outgoing.headersSent) page(outgoing, status, 'Sign-in failed', `<p>${escapeHtml((error as Error).message)}</p><p>Start again from the application.</p>`);
    }
    return true;
  };
}

async function detailsFor(request: InteractionRequest, uid: string | undefined): Promise<OidcInteractionDetails> {
  const details = await request.options.provider.interactionDetails(request.incoming, request.outgoing);
  if (details.uid !== uid) throw new Error('This sign-in page belongs to another authorization request.');
  return details;
}

async function showInteraction(request: InteractionRequest, params: Record<string, string>): Promise<void> {
  const details = await detailsFor(request, params['uid']);
  if (details.prompt.name === 'login') return loginPage(request.outgoing, details, 200);
  consentPage(request, details);
}

function loginPage(outgoing: ServerResponse, details: OidcInteractionDetails, status: number, error?: string): void {
  const client = escapeHtml(String(details.params['client_id']));
  page(
    outgoing,
    status,
    'Sign in to Payments',
    `<p>${client} asks to act for you.</p>${error === undefined ? '' : `<p role="alert">${escapeHtml(error)}</p>`}
<form method="post" action="/oauth/interaction/${details.uid}/login">
<label>User <input name="username" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>`,
  );
}

function consentPage(request: InteractionRequest, details: OidcInteractionDetails): void {
  const scopes = requestedScopes(request, details);
  page(
    request.outgoing,
    200,
    'Allow access to Payments',
    `<p>${escapeHtml(String(details.params['client_id']))} asks for: ${scopes.map((scope) => `<code>${escapeHtml(scope)}</code>`).join(', ') || 'no scope'}.</p>
<form method="post" action="/oauth/interaction/${details.uid}/confirm"><button type="submit" name="consent" value="yes">Allow</button></form>
<form method="post" action="/oauth/interaction/${details.uid}/abort"><button type="submit">Deny</button></form>`,
  );
}

function requestedScopes(request: InteractionRequest, details: OidcInteractionDetails): string[] {
  return [...(details.prompt.details.missingOIDCScope ?? []), ...(details.prompt.details.missingResourceScopes?.[request.options.resource] ?? [])];
}

async function submitLogin(request: InteractionRequest, params: Record<string, string>): Promise<void> {
  const details = await detailsFor(request, params['uid']);
  const form = ((await readRequestBody(request.incoming, { type: 'form', limitInBytes: FORM_LIMIT_IN_BYTES })) ?? {}) as Record<string, string>;
  const username = form['username'] ?? '';
  const user = Object.hasOwn(request.options.users, username) ? request.options.users[username] : undefined;
  if (!user || user.password !== form['password']) return loginPage(request.outgoing, details, 401, 'Unknown user or wrong password.');
  await request.options.provider.interactionFinished(request.incoming, request.outgoing, { login: { accountId: username } }, { mergeWithLastSubmission: false });
}

async function submitConsent(request: InteractionRequest, params: Record<string, string>): Promise<void> {
  const { provider, users, resource } = request.options;
  const details = await detailsFor(request, params['uid']);
  const accountId = details.session?.accountId;
  if (accountId === undefined || !Object.hasOwn(users, accountId)) throw new Error('Sign in first.');
  const allowed = users[accountId]!.scopes;
  const refused = (details.prompt.details.missingResourceScopes?.[resource] ?? []).filter((scope) => !allowed.includes(scope));
  if (refused.length > 0) {
    const result = { error: 'access_denied', error_description: `${accountId} may not grant ${refused.join(' ')}.` };
    return provider.interactionFinished(request.incoming, request.outgoing, result, { mergeWithLastSubmission: false });
  }
  const grant = (details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId, clientId: String(details.params['client_id']) });
  const oidcScopes = details.prompt.details.missingOIDCScope ?? [];
  if (oidcScopes.length > 0) grant.addOIDCScope(oidcScopes.join(' '));
  for (const [indicator, scopes] of Object.entries(details.prompt.details.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  await provider.interactionFinished(request.incoming, request.outgoing, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

async function abortInteraction(request: InteractionRequest, params: Record<string, string>): Promise<void> {
  await detailsFor(request, params['uid']);
  const result = { error: 'access_denied', error_description: 'The user denied access.' };
  await request.options.provider.interactionFinished(request.incoming, request.outgoing, result, { mergeWithLastSubmission: false });
}

/** The context `oidc-provider` hands its page callbacks: set `body` to answer. */
interface PageContext {
  body: unknown;
}

/**
 * The pages of the device authorization grant (RFC 8628), in place of the provider's own: the form
 * to enter the code, the confirmation (its `form` carries the code, the CSRF token and `confirm`),
 * and the end. `data-page` names each for `approveDevice`.
 */
export const DEVICE_FLOW_PAGES = {
  userCodeInputSource(context: PageContext, form: string, _out?: unknown, error?: Error): void {
    const message = error === undefined ? 'Enter the code shown on your device.' : `The code was not accepted (${error.message}); try again.`;
    context.body = renderPage(
      'Sign in a device',
      `<main data-page="device-code"><p role="alert">${escapeHtml(message)}</p>\n${form}\n<button type="submit" form="op.deviceInputForm">Continue</button></main>`,
    );
  },
  userCodeConfirmSource(context: PageContext, form: string, client: { clientId: string }, _deviceInfo: unknown, userCode: string): void {
    const detail = `${escapeHtml(client.clientId)} shows the code <code>${escapeHtml(userCode)}</code>. Continue only if your device shows it too.`;
    const buttons = '<button type="submit" form="op.deviceConfirmForm">Continue</button>\n<button type="submit" form="op.deviceConfirmForm" name="abort" value="yes">Cancel</button>';
    context.body = renderPage('Confirm the device', `<main data-page="device-confirm"><p>${detail}</p>\n${form}\n${buttons}</main>`);
  },
  successSource(context: PageContext): void {
    context.body = renderPage('Device signed in', '<main data-page="device-done"><p>You can return to your device.</p></main>');
  },
};

function page(outgoing: ServerResponse, status: number, title: string, body: string): void {
  sendText(outgoing, status, 'text/html; charset=utf-8', renderPage(title, body), { 'Cache-Control': 'no-store' });
}

function renderPage(title: string, body: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body><h1>${escapeHtml(title)}</h1>\n${body}\n</body></html>\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
