/**
 * The stdio client transport for upstream servers: the SDK's StdioClientTransport, but the
 * process is spawned as the leader of its own process group (POSIX `detached`, see
 * core/processTree.ts), so stopping it can end everything it started. The SDK's transport has
 * no such option (it spawns through cross-spawn with fixed options), hence this one; it keeps
 * the SDK's framing (serializeMessage, newline-delimited messages of at most 10 MB) and its
 * contract: start resolves once the process is spawned, onclose fires when the process is gone,
 * close ends stdin and leaves the process tree to the reaper (session.ts: SIGTERM to the group,
 * then SIGKILL). The process is registered with the reaper (and the watchdog) the moment it is
 * spawned. Reading is stdioReader.ts's: a message over the limit is skipped and fails only the
 * request it answered (a synthesized JSON-RPC error carrying an OversizedMessageError), and the
 * connection stays up.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { statSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { spawnsProcessGroup } from '../../core/processTree';
import { resolveStdioCommand } from '../../core/stdioCommand';
import { reapTree, trackChild } from './childReaper';
import { MAX_STDIO_MESSAGE_MB, OversizedMessageError, StdioReader, type DroppedMessage } from './stdioReader';

export interface ProcessGroupTransportOptions {
  command: string;
  args: string[];
  /** The whole environment of the process (nothing else is inherited). */
  env: Record<string, string>;
  cwd?: string | undefined;
  /** The command as it may be shown (its template when it came from a variable): Node's spawn errors name the resolved one. */
  shownCommand?: string;
}

export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly reader = new StdioReader({
    message: (message) => this.onmessage?.(message),
    // A line that is not a JSON-RPC message: reported, and reading goes on.
    error: (error) => this.onerror?.(error),
    oversized: (dropped) => this.dropped(dropped),
  });
  /** Exists before start(), so the earliest stderr output is caught. */
  readonly stderr = new PassThrough();

  constructor(private readonly options: ProcessGroupTransportOptions) {}

  /** The process id once spawned (the group id too, on POSIX). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ProcessGroupTransport already started');
    return new Promise((resolve, reject) => {
      // Windows: `npx` is npx.cmd, found through PATHEXT and run by cmd.exe with quoted arguments (stdioCommand.ts).
      const { command, args, windowsVerbatimArguments } = resolveStdioCommand(this.options.command, this.options.args, {
        platform: process.platform,
        env: this.options.env,
        isFile: (f) => statSync(f, { throwIfNoEntry: false })?.isFile() ?? false,
      });
      const child = spawn(command, args, {
        env: this.options.env,
        windowsVerbatimArguments,
        cwd: this.options.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
        detached: spawnsProcessGroup(process.platform),
      });
      this.child = child;
      child.on('error', (raw) => {
        const error = this.shownError(raw);
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => {
        if (child.pid !== undefined) trackChild(child.pid);
        resolve();
      });
      child.on('close', () => {
        // Whatever the leader left running in its group goes with it.
        if (child.pid !== undefined) reapTree(child.pid);
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin.on('error', (error) => this.onerror?.(error));
      child.stdout.on('error', (error) => this.onerror?.(error));
      child.stdout.on('data', (chunk: Buffer) => this.reader.push(chunk));
      child.stderr.pipe(this.stderr);
    });
  }

  /** Node's spawn error names the resolved command and may hold a secret; ours names it as shown, with the same code. */
  private shownError(raw: Error): Error {
    const code = (raw as NodeJS.ErrnoException).code;
    if (this.options.shownCommand === undefined || this.options.shownCommand === this.options.command) return raw;
    const error = new Error(`spawn ${this.options.shownCommand}${code ? ` ${code}` : ''}`) as NodeJS.ErrnoException;
    if (code !== undefined) error.code = code;
    return error;
  }

  /** A message over the size limit was skipped: fail the request it answered, answer the server's. */
  private dropped(dropped: DroppedMessage): void {
    const error = new OversizedMessageError(dropped);
    this.onerror?.(error);
    for (const id of dropped.failed) {
      const failure: JSONRPCMessage = {
        jsonrpc: '2.0',
        id,
        error: { code: ErrorCode.InternalError, message: error.reason, data: error },
      };
      this.onmessage?.(failure);
    }
    if (dropped.serverRequestId !== undefined) {
      const refusal = {
        code: ErrorCode.InvalidRequest,
        message: `request larger than the client's ${MAX_STDIO_MESSAGE_MB} MB limit for one message`,
      };
      void this.send({ jsonrpc: '2.0', id: dropped.serverRequestId, error: refusal }).catch(() => undefined);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) {
        reject(new Error('Not connected'));
        return;
      }
      this.reader.sent(message);
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends stdin (an MCP stdio server's cue to exit); the reaper ends the tree if it does not. */
  async close(): Promise<void> {
    const child = this.child;
    this.reader.clear();
    if (!child) return;
    try {
      child.stdin.end();
    } catch {
      // Already closed.
    }
  }
}
