/**
 * The select evaluator's process (dist/selectChild.js): evaluates one JMESPath projection at a
 * time for the gateway that forked it, under the heap limit and the deadline the gateway set
 * (selectRunner.ts). It holds nothing but the inputs it is sent, and ends with its parent: the
 * IPC channel closing is its signal.
 */
import { errorMessage } from '../../core/errorMessage';
import { evaluateSelect, type SelectOutcome } from '../../core/selectEvaluation';
import type { SelectReplyMessage, SelectRequestMessage } from './selectMessages';

const send = (message: SelectReplyMessage) => process.send?.(message);

process.on('message', (message: SelectRequestMessage) => {
  let outcome: SelectOutcome;
  try {
    outcome = evaluateSelect(message.input, message.expression, message.maxBytes);
  } catch (err) {
    outcome = { ok: false, problem: `select was not applied: ${errorMessage(err)}` };
  }
  send({ id: message.id, ...outcome });
});
process.on('disconnect', () => process.exit(0));
send({ ready: true });
