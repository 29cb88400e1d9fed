import { AicapError } from '../../src/errors/aicap-error.js';

/** The typed error a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function errorOf(promise: Promise<unknown>): Promise<AicapError> {
  try {
    await promise;
  } catch (error) {
    if (AicapError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an error');
}

/** The typed error `run` throws; fails the test when it returns or throws anything else. */
export function thrownBy(run: () => unknown): AicapError {
  try {
    run();
  } catch (error) {
    if (AicapError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an error');
}
