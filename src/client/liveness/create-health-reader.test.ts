import { describe, expect, it } from 'vitest';
import { toolState, type ServiceHealth } from './create-health-reader.js';

function health(service: Pick<ServiceHealth, 'status' | 'retryAtInMs'>, tools: ServiceHealth['tools'] = {}): ServiceHealth {
  return { url: 'https://api.example.com/health', ...service, tools, checkedAtInMs: 0 };
}

describe('toolState', () => {
  it('takes the service state for a tool it does not list', () => {
    const service = health({ status: 'degraded', retryAtInMs: 5 });
    expect(toolState(service, 'pay')).toBe(service);
  });

  it('takes the worse of the tool and its service', () => {
    expect(toolState(health({ status: 'ok', retryAtInMs: null }, { pay: { status: 'maintenance', retryAtInMs: 9 } }), 'pay')).toEqual({ status: 'maintenance', retryAtInMs: 9 });
    expect(toolState(health({ status: 'maintenance', retryAtInMs: 7 }, { pay: { status: 'ok', retryAtInMs: null } }), 'pay')).toMatchObject({ status: 'maintenance', retryAtInMs: 7 });
  });

  it('takes the later retry time when both are in the same state, and null when neither says', () => {
    expect(toolState(health({ status: 'maintenance', retryAtInMs: 100 }, { pay: { status: 'maintenance', retryAtInMs: 50 } }), 'pay').retryAtInMs).toBe(100);
    expect(toolState(health({ status: 'maintenance', retryAtInMs: null }, { pay: { status: 'maintenance', retryAtInMs: 50 } }), 'pay').retryAtInMs).toBe(50);
    expect(toolState(health({ status: 'degraded', retryAtInMs: null }, { pay: { status: 'degraded', retryAtInMs: null } }), 'pay').retryAtInMs).toBeNull();
  });

  it('does not take an inherited name for a listed tool', () => {
    const service = health({ status: 'ok', retryAtInMs: null });
    expect(toolState(service, 'constructor')).toBe(service);
    expect(toolState(service, '__proto__')).toBe(service);
  });
});
