import { AicapError } from '../../errors/aicap-error.js';

/** No usable manifest was found for an origin. `attempts` lists every URL tried and why it failed. */
export class DiscoveryError extends AicapError {
  override name: string = 'DiscoveryError';
  /** Each URL tried, with the reason it did not yield a manifest. */
  readonly attempts: readonly DiscoveryAttempt[];

  constructor(details: { target: string; attempts: readonly DiscoveryAttempt[]; cause?: unknown }) {
    const tried = details.attempts.map((attempt) => `${attempt.url}: ${attempt.reason}`).join('; ');
    super(
      'DISCOVERY_FAILED',
      `No AI capabilities manifest found for ${details.target} (${tried || 'nothing tried'}). ` + 'Serve one at /.well-known/ai-capabilities, or pass the manifest URL itself.',
      { cause: details.cause },
    );
    this.attempts = details.attempts;
  }
}

/** One step of discovery. */
export interface DiscoveryAttempt {
  /** URL requested. */
  url: string;
  /** Why it did not yield a manifest. */
  reason: string;
}
