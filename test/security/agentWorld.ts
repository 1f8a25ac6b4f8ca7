/**
 * The agent-as-attacker world (SECURITY.md "Trust only grows by the user's hand"): a workspace
 * whose MCP config names the real filesystem server, rooted at the workspace, so an agent can
 * write the workspace's own config and settings through MCP Lens; `mcp-lens serve` on it, over
 * stdio with an MCP client as the prompt-injected agent, or over HTTP on a pseudo-terminal
 * (util-linux `script`) where the test answers prompts as the user; and the payload an agent
 * would plant: a server whose start leaves a file behind, so "did it run" is a fact on disk.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, watch } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { connectAgent, findToolsWhenStarted } from '../fixtures/agentClient';
import { CLI, ROOT, type HostileWorkspace } from './hostileWorkspace';

const NM = join(ROOT, 'node_modules/@modelcontextprotocol');
const GATED = join(ROOT, 'test/fixtures/servers/gated.mjs');
const WAIT_FOR_FILE = join(ROOT, 'test/security/fixtures/waitForFile.mjs');

/** The real filesystem server, allowed the workspace folder only. */
export function filesystemServer(dir: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [join(NM, 'server-filesystem/dist/index.js'), dir] };
}

/** A server with one tool, `wait_for_file`, that answers once a file exists (a script's condition wait). */
export const WAIT_SERVER = { command: process.execPath, args: [WAIT_FOR_FILE] };

/** What the agent plants: a preload that records its process starting, then a real MCP server (tool `<prefix>_ping`). */
export const PAYLOAD = "require('fs').writeFileSync(require('path').join(__dirname, 'pwned'), String(process.pid));\n";

/** The server an agent adds: node preloading `payload.cjs` from the workspace (it leaves `pwned` when it runs). */
export function plantedServer(ws: HostileWorkspace, prefix: string): { command: string; args: string[] } {
  return { command: process.execPath, args: ['--require', ws.path('payload.cjs'), GATED, '--prefix', prefix] };
}

/** Whether the planted payload ever ran. */
export const payloadRan = (ws: HostileWorkspace) => existsSync(ws.path('pwned'));

/**
 * Resolves once `file` exists and `check` holds for its text (fs.watch on its folder, never a
 * timer); `cancel` stops waiting. Fails after `ms`.
 */
export function untilFile(
  file: string,
  check: (text: string) => boolean = () => true,
  ms = 90_000,
): { done: Promise<void>; cancel(): void } {
  let cancel = () => undefined as void;
  const done = new Promise<void>((resolve, reject) => {
    const holds = () => {
      try {
        return check(readFileSync(file, 'utf8'));
      } catch {
        return false;
      }
    };
    const w = watch(dirname(file), (_e, name) => {
      if ((name === null || name === basename(file)) && holds()) finish(resolve);
    });
    const timer = setTimeout(() => finish(() => reject(new Error(`timed out waiting for ${file}`))), ms);
    const finish = (f: () => void) => {
      clearTimeout(timer);
      w.close();
      f();
    };
    cancel = () => finish(() => undefined);
    if (holds()) finish(resolve);
  });
  return { done, cancel };
}

/** Waits for `held` (what MCP Lens says when it holds the agent's change); fails at once if the planted server runs first. */
export async function heldNotRun(ws: HostileWorkspace, held: Promise<RegExpExecArray>): Promise<RegExpExecArray> {
  const ran = untilFile(ws.path('pwned'));
  try {
    return await Promise.race([
      held,
      ran.done.then(() =>
        Promise.reject(new Error("the agent's planted server ran: its change took effect without approval")),
      ),
    ]);
  } finally {
    ran.cancel();
  }
}

export function text(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/**
 * The agent's client declares form elicitation: MCP Lens asks before a destructive tool runs
 * through call_tool (app/toolConsent.ts), and here the user behind the agent allows each such
 * call once, the worst case for these tests: the agent writes what it wants, and trust must still
 * grow only by the user's hand. Any other question is declined.
 */
export const AGENT_CAPABILITIES: ClientCapabilities = { elicitation: { form: {} } };

/** The agent's moves, through the gateway's meta-tools only. */
export class Agent {
  constructor(readonly client: Client) {
    client.setRequestHandler(ElicitRequestSchema, async (r) =>
      r.params.message.startsWith('MCP Lens: the agent wants to run')
        ? { action: 'accept', content: { decision: 'once' } }
        : { action: 'decline' },
    );
  }

  /** As an agent starts: find_tools until no server is still starting (on list_changed, never a timer). */
  async ready(): Promise<void> {
    await findToolsWhenStarted(this.client, { query: 'write a file' });
  }

  call(tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return this.client.callTool({
      name: 'call_tool',
      arguments: { tool_name: tool, arguments: args },
    }) as Promise<CallToolResult>;
  }

  /** Writes a file with the filesystem server's write_file, as a single call_tool. */
  async writeFile(path: string, content: string): Promise<void> {
    const r = await this.call('files_write_file', { path, content });
    if (r.isError) throw new Error(`write_file ${path} failed: ${text(r)}`);
  }

  runCode(code: string): Promise<CallToolResult> {
    return this.client.callTool({ name: 'run_code', arguments: { code } }) as Promise<CallToolResult>;
  }

  async servers(): Promise<{ name: string; state: string; error?: string }[]> {
    return (
      JSON.parse(text(await this.client.callTool({ name: 'list_servers', arguments: {} }))) as {
        servers: { name: string; state: string; error?: string }[];
      }
    ).servers;
  }

  async findTools(query: string): Promise<string[]> {
    const r = await this.client.callTool({ name: 'find_tools', arguments: { query, limit: 20 } });
    return ((r.structuredContent as { matches?: { name: string }[] } | undefined)?.matches ?? []).map((m) => m.name);
  }
}

/** Output of a running serve (stderr, or the terminal's screen), waited on by pattern. */
class Output {
  private text = '';
  private readonly waiters = new Set<() => void>();
  private ended = false;

  add(chunk: string): void {
    this.text += chunk;
    for (const w of this.waiters) w();
  }

  end(): void {
    this.ended = true;
    for (const w of this.waiters) w();
  }

  get all(): string {
    return this.text;
  }

  /** Resolves once the output from `from` on matches; fails on exit or after `ms` (a hang is a finding). */
  waitFor(pattern: RegExp, from = 0, ms = 90_000): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(this.text.slice(from));
        if (m) return done(() => resolve(m));
        if (this.ended) done(() => reject(new Error(`serve exited before ${pattern}:\n${this.text}`)));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`timed out waiting for ${pattern}:\n${this.text}`))),
        ms,
      );
      const done = (f: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        f();
      };
      this.waiters.add(check);
      check();
    });
  }
}

export interface Serve {
  agent: Agent;
  output: Output;
  close(): Promise<void>;
}

/** `mcp-lens serve` over stdio, its MCP client the agent. */
export async function serveStdio(args: string[], env: NodeJS.ProcessEnv): Promise<Serve> {
  const output = new Output();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', CLI, 'serve', ...args],
    cwd: ROOT,
    env: { ...env, MCP_LENS_LOG: 'warn' } as Record<string, string>,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => output.add(d.toString()));
  const client = new Client({ name: 'prompt-injected-agent', version: '1.0.0' }, { capabilities: AGENT_CAPABILITIES });
  await client.connect(transport);
  const agent = new Agent(client);
  await agent.ready();
  return {
    agent,
    output,
    async close() {
      await client.close();
      output.end();
    },
  };
}

export interface TerminalServe extends Serve {
  /** Types on the terminal (the user's answers). */
  type(keys: string): void;
}

/**
 * `mcp-lens serve --http` on a pseudo-terminal as a person runs it (prompts appear there); the
 * agent connects over HTTP with the token the test chose (MCP_LENS_TOKEN).
 */
export async function serveOnTerminal(args: string[], env: NodeJS.ProcessEnv, token: string): Promise<TerminalServe> {
  const command = [process.execPath, '--import', 'tsx', CLI, 'serve', '--http', ...args]
    .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  const child: ChildProcess = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: { ...env, TERM: 'dumb', MCP_LENS_TOKEN: token, MCP_LENS_LOG: 'warn' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output = new Output();
  child.stdout!.setEncoding('utf8').on('data', (c: string) => output.add(c));
  child.stderr!.resume();
  const exited = new Promise<void>((r) => child.once('close', () => (output.end(), r())));
  let client: Client | undefined;
  const stop = async () => {
    await client?.close().catch(() => undefined);
    if (child.exitCode === null && child.signalCode === null) {
      // Ctrl+C on the terminal: serve shuts down and stops its upstream servers.
      child.stdin!.write('\x03');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
  };
  try {
    const url = (await output.waitFor(/MCP Lens listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/))[1]!;
    client = await connectAgent(url, token, 'prompt-injected-agent', AGENT_CAPABILITIES);
    await new Agent(client).ready();
  } catch (err) {
    await stop();
    throw err;
  }
  return { agent: new Agent(client), output, type: (keys) => child.stdin!.write(keys), close: stop };
}

/** The approvals file a test's CLI runs share (cliEnv puts it beside the workspace). */
export function approvalsOf(ws: HostileWorkspace): Record<string, Record<string, string>> {
  const file = join(ws.outside, 'approvals.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>) : {};
}
