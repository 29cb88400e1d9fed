import { AicapError } from '../../errors/aicap-error.js';

/** One problem with one argument, shaped so that a model can fix its call. */
export interface ArgumentProblem {
  /** JSON Pointer of the offending value inside the arguments object (`''` for the object itself). */
  pointer: string;
  /** Top-level parameter concerned, when there is one. */
  parameter?: string;
  /** The JSON Schema keyword that failed (`required`, `type`, `enum`, `additionalProperties`…). */
  rule: string;
  /** What is wrong and what would be accepted. */
  message: string;
}

/**
 * The arguments do not match the tool's parameters. Nothing was sent. `problems` names each bad
 * field; `toProblem()` gives an RFC 9457-style object to hand back to the model.
 */
export class InvalidArgumentsError extends AicapError {
  override name: string = 'InvalidArgumentsError';
  /** Tool the arguments were for. */
  readonly toolId: string;
  /** Every problem found (all of them, not only the first). */
  readonly problems: readonly ArgumentProblem[];

  constructor(toolId: string, problems: readonly ArgumentProblem[]) {
    const shown = problems
      .slice(0, 5)
      .map((problem) => `${problem.pointer || '/'}: ${problem.message}`)
      .join('; ');
    const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
    super('INVALID_ARGUMENTS', `Invalid arguments for tool "${toolId}": ${shown}${more}. Fix these fields and call again; nothing was sent.`);
    this.toolId = toolId;
    this.problems = problems;
  }
}
