/** What a run_code sandbox is given and hands back, on whichever thread it runs. */
import type { SandboxError } from './scriptErrors';

export interface SandboxHost {
  /** Tool names the script's `tools` object offers (the same names find_tools returns). */
  toolNames: readonly string[];
  /**
   * One call_tool() from the script, arguments already parsed from JSON. Resolves to the
   * value the script receives (JSON-serializable) or rejects with the Error it sees.
   */
  callTool(name: string, args: unknown, options: unknown, signal: AbortSignal): Promise<unknown>;
  /** read_result(uri): a kept result's value, or rejects with why not. */
  readResult(uri: string): Promise<unknown>;
}

/**
 * The host as a run inside the VM sees it: values come back as JSON text, which the VM parses
 * itself (in a worker, the text is all that crosses from the gateway's thread).
 */
export interface ScriptHost {
  toolNames: readonly string[];
  /** Resolves to the JSON text of the value the script receives (undefined: nothing), or rejects with its Error. */
  callTool(name: string, args: unknown, options: unknown, signal: AbortSignal): Promise<string | undefined>;
  readResult(uri: string): Promise<string | undefined>;
}

export interface SandboxLimits {
  wallTimeMs: number;
  memoryBytes: number;
  maxCalls: number;
  /** Largest return value, as JSON characters. */
  maxOutputChars: number;
  /** Logs kept, in characters; later lines are dropped with a note. */
  maxLogChars: number;
  /** Largest call_tool arguments (and options), as JSON characters. */
  maxArgsChars: number;
}

export interface SandboxRun {
  ok: boolean;
  /** The script's return value (ok only; undefined when it returned nothing). */
  value?: unknown;
  error?: SandboxError;
  logs: string[];
  /** Tool calls that went out (at most the limit). */
  calls: number;
  /** Time to a sandbox ready to run the script (instance, runtime, API). */
  startMs: number;
  durationMs: number;
  /**
   * What the run's WebAssembly memory had grown to, in bytes. It is freed only when its thread
   * next collects garbage, so a worker whose run grew it far is replaced rather than kept idle.
   */
  memoryBytes?: number;
}

/** A run as the VM ends it, its return value still JSON text (what crosses back from a worker). */
export type ScriptOutcome = Omit<SandboxRun, 'value'> & { json?: string };
