/**
 * The stdio client transport for upstream servers: the SDK's StdioClientTransport, but the
 * process is spawned as the leader of its own process group (POSIX `detached`, see
 * core/processTree.ts), so stopping it can end everything it started. The SDK's transport has
 * no such option (it spawns through cross-spawn with fixed options), hence this one; it keeps
 * the SDK's framing (ReadBuffer, serializeMessage and their 10 MB limit) and its contract: start
 * resolves once the process is spawned, onclose fires when the process is gone, close ends stdin
 * and leaves the process tree to the reaper (session.ts: SIGTERM to the group, then SIGKILL).
 * The process is registered with the reaper (and the watchdog) the moment it is spawned.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { statSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { spawnsProcessGroup } from '../../core/processTree';
import { resolveStdioCommand } from '../../core/stdioCommand';
import { reapTree, trackChild } from './childReaper';

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
  private readonly readBuffer = new ReadBuffer();
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
      child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
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

  private read(chunk: Buffer): void {
    try {
      this.readBuffer.append(chunk);
    } catch (error) {
      // Over the size limit: the SDK reports it and closes the connection; so do we.
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (error) {
        // A line that is not a JSON-RPC message: reported, and reading goes on.
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) break;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends stdin (an MCP stdio server's cue to exit); the reaper ends the tree if it does not. */
  async close(): Promise<void> {
    const child = this.child;
    this.readBuffer.clear();
    if (!child) return;
    try {
      child.stdin.end();
    } catch {
      // Already closed.
    }
  }
}
