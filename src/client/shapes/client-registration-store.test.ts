import { describe, expect, it } from 'vitest';
import {
  BROWSER_GRANT_TYPES,
  createMemoryClientRegistrationStore,
  DEVICE_GRANT_TYPES,
  hasGrantTypes,
  storedClientSecret,
  withRegistration,
  type ClientRegistration,
} from './client-registration-store.js';

const ISSUER = 'https://auth.example.com';
const browser: ClientRegistration = { clientId: 'browser', clientSecret: 'browser-secret', method: 'dynamic-registration', grantTypes: BROWSER_GRANT_TYPES };
const device: ClientRegistration = { clientId: 'device', method: 'dynamic-registration', grantTypes: DEVICE_GRANT_TYPES };
const legacy: ClientRegistration = { clientId: 'legacy', method: 'dynamic-registration' };

describe('hasGrantTypes', () => {
  it.each([
    { name: 'the same grants', registration: browser, grants: ['authorization_code', 'refresh_token'], expected: true },
    { name: 'the same grants in another order', registration: browser, grants: ['refresh_token', 'authorization_code'], expected: true },
    { name: 'the same grants repeated', registration: browser, grants: ['refresh_token', 'authorization_code', 'refresh_token'], expected: true },
    { name: 'a subset', registration: browser, grants: ['authorization_code'], expected: false },
    { name: 'a superset', registration: browser, grants: [...BROWSER_GRANT_TYPES, 'client_credentials'], expected: false },
    { name: 'the device grants for a browser client', registration: browser, grants: DEVICE_GRANT_TYPES, expected: false },
    { name: 'the browser grants for a registration stored before grants were recorded', registration: legacy, grants: BROWSER_GRANT_TYPES, expected: true },
    { name: 'the device grants for such a registration', registration: legacy, grants: DEVICE_GRANT_TYPES, expected: false },
  ])('is $expected for $name', ({ registration, grants, expected }) => {
    expect(hasGrantTypes(registration, grants)).toBe(expected);
  });
});

describe('withRegistration', () => {
  it.each([
    { name: 'adds a registration for a new grant set', before: [browser], added: device, expected: ['browser', 'device'] },
    { name: 'replaces the one for the same grant set', before: [browser, device], added: { ...browser, clientId: 'browser-2' }, expected: ['device', 'browser-2'] },
    { name: 'replaces a legacy registration with a browser one', before: [legacy], added: browser, expected: ['browser'] },
    { name: 'starts a list', before: [], added: device, expected: ['device'] },
  ])('$name', ({ before, added, expected }) => {
    const frozen = Object.freeze([...before]);
    expect(withRegistration(frozen, added).map((registration) => registration.clientId)).toEqual(expected);
    expect(frozen).toEqual(before);
  });
});

describe('createMemoryClientRegistrationStore', () => {
  it('keeps registrations per issuer and per grant set', async () => {
    const store = createMemoryClientRegistrationStore();
    await store.put(ISSUER, browser);
    await store.put(ISSUER, device);
    await store.put('https://other.example', legacy);
    await store.put(ISSUER, { ...device, clientId: 'device-2' });
    expect((await store.list(ISSUER)).map((registration) => registration.clientId)).toEqual(['browser', 'device-2']);
    expect((await store.list('https://other.example')).map((registration) => registration.clientId)).toEqual(['legacy']);
    expect(await store.list('https://unknown.example')).toEqual([]);
  });

  it('keeps two stores apart', async () => {
    const first = createMemoryClientRegistrationStore();
    await first.put(ISSUER, browser);
    expect(await createMemoryClientRegistrationStore().list(ISSUER)).toEqual([]);
  });
});

describe('storedClientSecret', () => {
  it.each([
    { name: 'the secret of the client at its issuer', issuer: ISSUER, clientId: 'browser', expected: 'browser-secret' },
    { name: 'nothing for a public client', issuer: ISSUER, clientId: 'device', expected: undefined },
    { name: 'nothing for an unknown client', issuer: ISSUER, clientId: 'nobody', expected: undefined },
    { name: 'nothing for the same client id at another issuer', issuer: 'https://other.example', clientId: 'browser', expected: undefined },
  ])('finds $name', async ({ issuer, clientId, expected }) => {
    const store = createMemoryClientRegistrationStore();
    await store.put(ISSUER, browser);
    await store.put(ISSUER, device);
    await store.put('https://other.example', { ...legacy, clientId: 'other' });
    expect(await storedClientSecret(store, issuer, clientId)).toBe(expected);
  });
});
