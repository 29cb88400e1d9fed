import { AicapError } from '../../errors/aicap-error.js';

/** A manifest points its `service.base_url` at another origin than the one it was fetched from. */
export class OriginMismatchError extends AicapError {
  override name: string = 'OriginMismatchError';
  /** Origin the manifest was fetched from. */
  readonly manifestOrigin: string;
  /** The `service.base_url` the manifest declares. */
  readonly baseUrl: string;

  constructor(details: { manifestOrigin: string; baseUrl: string; reason: string }) {
    super(
      'ORIGIN_MISMATCH',
      `Manifest from ${details.manifestOrigin} declares /service/base_url ${details.baseUrl}: ${details.reason}. ` +
        'Credentials are bound to the manifest origin, so the manifest is refused. ' +
        'Serve the manifest from the API origin, or add the API origin to `trust.allowedOrigins` if you trust it.',
    );
    this.manifestOrigin = details.manifestOrigin;
    this.baseUrl = details.baseUrl;
  }
}
