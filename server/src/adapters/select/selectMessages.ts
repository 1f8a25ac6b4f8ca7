/**
 * The messages between the gateway and its select evaluator (selectChild.ts), over the IPC
 * channel of a forked Node process. One request at a time per process.
 */
import type { SelectOutcome } from '../../core/selectEvaluation';
import type { SelectInput } from '../../core/selectSubject';

/** Parent → child: evaluate `expression` over `input`. */
export interface SelectRequestMessage {
  id: number;
  input: SelectInput;
  expression: string;
  maxBytes: number;
}

/** Child → parent: `ready` once it listens, then one reply per request. */
export type SelectReplyMessage = { ready: true } | ({ id: number } & SelectOutcome);
