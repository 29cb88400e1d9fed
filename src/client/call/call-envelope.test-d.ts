import { describe, expectTypeOf, it } from 'vitest';
import type { CallEnvelope, CallError } from './call-envelope.js';
import type { Client } from '../create-client.js';

describe('CallEnvelope', () => {
  it('narrows on ok so a failure always has its error', () => {
    const envelope = {} as CallEnvelope;
    if (!envelope.ok) expectTypeOf(envelope.error).toEqualTypeOf<CallError>();
    else expectTypeOf(envelope.error).toEqualTypeOf<undefined>();
    expectTypeOf(envelope.error?.code).toEqualTypeOf<string | undefined>();
  });

  it('is what the client methods resolve to', () => {
    expectTypeOf<ReturnType<Client['call']>>().toEqualTypeOf<Promise<CallEnvelope>>();
    expectTypeOf<ReturnType<Client['readResource']>>().toEqualTypeOf<Promise<CallEnvelope>>();
    expectTypeOf<ReturnType<Client['paginate']>>().toEqualTypeOf<AsyncIterableIterator<CallEnvelope>>();
  });
});
