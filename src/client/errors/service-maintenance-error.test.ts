import { describe, expect, it } from 'vitest';
import { AicapError } from '../../errors/aicap-error.js';
import { ServiceMaintenanceError } from './service-maintenance-error.js';

const base = { toolName: 'payments__create_payment', origin: 'https://api.example.com', healthUrl: 'https://api.example.com/health' };

describe('ServiceMaintenanceError', () => {
  it('is a retryable SERVICE_MAINTENANCE error counting the wait from the injected now', () => {
    const error = new ServiceMaintenanceError({ ...base, retryAtInMs: Date.UTC(2026, 11, 4, 6, 0, 0), nowInMs: Date.UTC(2026, 11, 4, 5, 59, 30) });
    expect(error).toBeInstanceOf(AicapError);
    expect(error.code).toBe('SERVICE_MAINTENANCE');
    expect(error.retryable).toBe(true);
    expect(error.retryAfterInMs).toBe(30_000);
    expect(error.message).toContain('2026-12-04T06:00:00.000Z');
    expect(error.userMessage).toContain('"payments__create_payment" was not called');
  });

  it('never gives a negative wait when the time has passed, and none when the resource gave no time', () => {
    expect(new ServiceMaintenanceError({ ...base, retryAtInMs: 1_000, nowInMs: 5_000 }).retryAfterInMs).toBe(0);
    const unknown = new ServiceMaintenanceError({ ...base, retryAtInMs: null, nowInMs: 5_000 });
    expect(unknown.retryAfterInMs).toBeNull();
    expect(unknown.retryAtInMs).toBeNull();
    expect(unknown.message).not.toContain(' until ');
  });
});
