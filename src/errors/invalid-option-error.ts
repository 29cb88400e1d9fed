import { AicapError } from './aicap-error.js';

/** Where an option belongs and what to do, for {@link invalidOptionError}. */
export interface OptionErrorContext {
  /** The function the option is given to, when its name alone could be another's (`createJobStreams`, `` `client.load` ``). */
  of?: string;
  /** What to do, beyond the rule, appended to the message. */
  fix?: string;
}

/**
 * The one `INVALID_OPTION` error: ``The `<option>` option [of <function>] must be <rule>, got <value>.``
 * and, when given, what to do. `option` is the path the caller wrote (`network.timeouts.headersInMs`,
 * `jobs.follow.maxDurationInMs`); `rule` says what is accepted. Options are checked when the factory
 * is called, so this is thrown there, never on first use.
 */
export function invalidOptionError(option: string, rule: string, value: unknown, context: OptionErrorContext = {}): AicapError {
  const of = context.of === undefined ? '' : ` of ${context.of}`;
  const fix = context.fix === undefined ? '' : ` ${context.fix}`;
  return new AicapError('INVALID_OPTION', `The \`${option}\` option${of} must be ${rule}, got ${describeOptionValue(value)}.${fix}`, { option });
}

/** Bounds of {@link checkIntegerOption}, and where the option belongs. */
export interface IntegerOptionBounds extends OptionErrorContext {
  /** Smallest accepted value. @default 0 */
  minimum?: number;
  /** Largest accepted value. @default Number.MAX_SAFE_INTEGER */
  maximum?: number;
}

// The bounds of a check given none: one object for every such check.
const NO_BOUNDS: IntegerOptionBounds = {};

/** Returns `value` when it is a safe integer within the bounds; throws {@link invalidOptionError} otherwise. */
export function checkIntegerOption(option: string, value: number, bounds: IntegerOptionBounds = NO_BOUNDS): number {
  // Read, not destructured with a rest: a client checks some twenty options when it is created, and a
  // rest object per check is garbage on the path every new client takes. The bounds are the context as
  // they are (`invalidOptionError` reads only `of` and `fix`).
  const minimum = bounds.minimum ?? 0;
  const maximum = bounds.maximum ?? Number.MAX_SAFE_INTEGER;
  if (Number.isSafeInteger(value) && value >= minimum && value <= maximum) return value;
  const rule = maximum !== Number.MAX_SAFE_INTEGER ? `an integer from ${minimum} to ${maximum}` : minimum === 1 ? 'a positive integer' : `an integer ≥ ${minimum}`;
  throw invalidOptionError(option, rule, value, bounds);
}

/** Returns `value` when it is a finite number of at least `minimum` (and at most `maximum`); throws {@link invalidOptionError} otherwise. */
export function checkNumberOption(option: string, value: number, bounds: OptionErrorContext & { minimum: number; maximum?: number }): number {
  const { minimum } = bounds;
  const maximum = bounds.maximum ?? Number.POSITIVE_INFINITY;
  if (typeof value === 'number' && Number.isFinite(value) && value >= minimum && value <= maximum) return value;
  throw invalidOptionError(option, maximum === Number.POSITIVE_INFINITY ? `a finite number ≥ ${minimum}` : `a number from ${minimum} to ${maximum}`, value, bounds);
}

/** A value as a message shows it: numbers as written (`NaN`, `1.5`), strings quoted and cut, anything else by its JSON or its type. */
function describeOptionValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === undefined || value === null) return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
  if (typeof value === 'function' || typeof value === 'symbol') return `a ${typeof value}`;
  try {
    const text = JSON.stringify(value);
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    return Array.isArray(value) ? 'an array' : 'an object';
  }
}
