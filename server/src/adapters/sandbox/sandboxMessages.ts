/**
 * The messages between the gateway's thread and a script worker (sandboxWorker.ts). A worker
 * runs one script at a time; the script's tool calls come back to the gateway as messages and
 * their values go in as JSON text, so every rule of a call stays on the gateway's side.
 */
import type { SandboxLimits, ScriptOutcome } from './quickjsSandbox';

/** Gateway → worker. */
export type ToWorker =
  | { type: 'run'; code: string; toolNames: readonly string[]; limits: SandboxLimits }
  /** The answer to a call or read: JSON text (undefined: nothing) or the message of its Error. */
  | { type: 'answer'; id: number; ok: true; json: string | undefined }
  | { type: 'answer'; id: number; ok: false; message: string }
  | { type: 'cancel' };

/** Worker → gateway. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'call'; id: number; name: string; args: unknown; options: unknown }
  | { type: 'read'; id: number; uri: string }
  /** The script's run ended (its deadline, a cancel): the call it had in flight is no longer wanted. */
  | { type: 'abort'; id: number }
  | { type: 'done'; outcome: ScriptOutcome };
