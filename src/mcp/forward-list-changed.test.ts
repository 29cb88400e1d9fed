import { describe, expect, it } from 'vitest';
import { forwardListChanged } from './forward-list-changed.js';

// A host is told to list tools again on every change of a bridged manifest; a host that went away
// must not turn that notice into an unhandled rejection, and stopping the forwarding stops it.

type ChangeEmitter = Parameters<typeof forwardListChanged>[0];

function emitter(): { client: ChangeEmitter; emit(): void } {
  const listeners = new Set<() => void>();
  const client = {
    on: (event: string, listener: () => void) => {
      expect(event).toBe('change');
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  } as unknown as ChangeEmitter;
  return { client, emit: () => listeners.forEach((listener) => listener()) };
}

describe('forwardListChanged', () => {
  it('sends tools/list_changed once per change until stopped', () => {
    const { client, emit } = emitter();
    let sent = 0;
    const stop = forwardListChanged(client, { sendToolListChanged: async () => void sent++ });
    emit();
    emit();
    expect(sent).toBe(2);
    stop();
    emit();
    expect(sent).toBe(2);
  });

  it('swallows a failed send from a host that went away, leaving no unhandled rejection', async () => {
    const { client, emit } = emitter();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      forwardListChanged(client, { sendToolListChanged: () => Promise.reject(new Error('Not connected')) });
      emit();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
