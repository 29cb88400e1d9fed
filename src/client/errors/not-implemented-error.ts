import { AicapError } from '../../errors/aicap-error.js';

/** A client method whose part has not landed in this build yet. */
export class NotImplementedError extends AicapError {
  override name: string = 'NotImplementedError';

  constructor(method: string) {
    // TOOL_DISABLED is the closest stable code: the capability exists in the API but cannot run here.
    super('TOOL_DISABLED', `\`client.${method}()\` is not implemented yet in this build of aicap/client.`);
  }
}
