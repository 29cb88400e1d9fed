import { AicapError } from '../../errors/aicap-error.js';

/**
 * `SERVICE_MAINTENANCE`: the service's health resource (spec section 7.21) says `maintenance` for the
 * service or the tool, so the call was not sent. Retryable: `retryAfterInMs` says when, when the
 * resource said. Its messages hold only the client's own values (the tool, the origin, the time),
 * never the resource's `message`.
 */
export class ServiceMaintenanceError extends AicapError {
  override name = 'ServiceMaintenanceError';
  /** A sentence for the user. */
  readonly userMessage: string;
  /** Always true: the same call may succeed once the maintenance ends. */
  readonly retryable = true;
  /** How long to wait, in milliseconds, when the health resource said; `null` otherwise. */
  readonly retryAfterInMs: number | null;
  /** When to try again, in milliseconds since the epoch; `null` when the health resource did not say. */
  readonly retryAtInMs: number | null;

  constructor(details: { toolName: string; origin: string; healthUrl: string; retryAtInMs: number | null; nowInMs: number }) {
    const { retryAtInMs } = details;
    const until = retryAtInMs === null ? '' : ` until ${new Date(retryAtInMs).toISOString()}`;
    super(
      'SERVICE_MAINTENANCE',
      `${details.origin} is in maintenance${until} by its health resource ${details.healthUrl}; "${details.toolName}" was not called. ` +
        (retryAtInMs === null ? 'Try again later.' : 'Try again after that time.'),
    );
    this.userMessage = `The service at ${details.origin} is in maintenance${until}; "${details.toolName}" was not called. ${retryAtInMs === null ? 'Try again later.' : 'Try again after that time.'}`;
    this.retryAtInMs = retryAtInMs;
    this.retryAfterInMs = retryAtInMs === null ? null : Math.max(0, retryAtInMs - details.nowInMs);
  }
}
