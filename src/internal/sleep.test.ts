import { describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_IN_MS, sleep } from './sleep.js';

describe('sleep', () => {
  it('resolves after the delay', async () => {
    await expect(sleep(5)).resolves.toBeUndefined();
  });

  it('rejects with the reason of a signal that aborts while it waits, and leaves no listener behind', async () => {
    const controller = new AbortController();
    const reason = new Error('stopped');
    const waiting = sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });

  it('rejects at once for a signal that has already aborted', async () => {
    const reason = new Error('already');
    await expect(sleep(60_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it('removes its abort listener once the delay is over', async () => {
    const controller = new AbortController();
    let listeners = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => (listeners++, add(...args))) as typeof add;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => (listeners--, remove(...args))) as typeof remove;
    await sleep(1, signal);
    expect(listeners).toBe(0);
  });

  it('waits at most the longest timer Node keeps, instead of a longer delay overflowing into no wait', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const controller = new AbortController();
    try {
      const waiting = sleep(99_999_999_999_000, controller.signal);
      expect(timers.mock.calls.at(-1)?.[1]).toBe(MAX_TIMER_IN_MS);
      controller.abort(new Error('done'));
      await expect(waiting).rejects.toThrow('done');
    } finally {
      timers.mockRestore();
    }
  });
});
