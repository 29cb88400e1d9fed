import { AicapError } from '../../errors/aicap-error.js';
import { optionTerm, worded } from '../../errors/message-term.js';

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
      worded`Manifest from ${details.manifestOrigin} declares /service/base_url ${details.baseUrl}: ${details.reason}. Credentials are bound to the manifest origin, so the manifest is refused. Serve the manifest from the API origin, or, if you trust the API origin, allow it with ${optionTerm('trust.allowedOrigins')}.`,
    );
    this.manifestOrigin = details.manifestOrigin;
    this.baseUrl = details.baseUrl;
  }
}
