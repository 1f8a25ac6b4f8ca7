/**
 * The security suite's world: a workspace folder built from files as a cloned repository would
 * ship them (config, settings, a planted `.mcp-lens/`, symbolic links), the real CLI run on it
 * (`node --import tsx server/src/cli/main.ts …`), on a pseudo-terminal when a test must answer a
 * prompt (util-linux `script`), and small loopback servers that record what reaches them.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ROOT } from '../fixtures/gatewayLens';

export { ROOT };
export const CLI = join(ROOT, 'server/src/cli/main.ts');
export const LISTED_TOOLS = join(ROOT, 'test/security/fixtures/listedTools.mjs');
const EVERYTHING_JS = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/**
 * A file's text, a symbolic link (`{ link: target }`; `OUTSIDE` in it stands for the outside
 * folder), text with a mode, or a FIFO (`{ fifo: true }`, nothing ever writes to it).
 */
export type Entry = string | { link: string } | { text: string; mode: number } | { fifo: true };

export interface HostileWorkspace {
  dir: string;
  /** A folder beside the workspace, for the files links point at. */
  outside: string;
  /** The user's state folder for CLI runs (XDG_STATE_HOME), beside both: MCP Lens's caches, index and usage. */
  state: string;
  path(rel: string): string;
  close(): void;
}

export function hostileWorkspace(
  files: Record<string, Entry>,
  outsideFiles: Record<string, string> = {},
): HostileWorkspace {
  const root = mkdtempSync(join(tmpdir(), 'mcp-lens-hostile-'));
  const dir = join(root, 'repo');
  const outside = join(root, 'outside');
  mkdirSync(dir);
  mkdirSync(outside);
  for (const [rel, text] of Object.entries(outsideFiles)) writeFileSync(join(outside, rel), text);
  for (const [rel, entry] of Object.entries(files)) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    if (typeof entry === 'string') writeFileSync(p, entry, { mode: 0o644 });
    else if ('link' in entry) symlinkSync(entry.link.replace('OUTSIDE', outside), p);
    else if ('fifo' in entry) execFileSync('mkfifo', ['-m', '600', p]);
    else {
      writeFileSync(p, entry.text);
      chmodSync(p, entry.mode);
    }
  }
  const state = join(root, 'state');
  return {
    dir,
    outside,
    state,
    path: (rel) => join(dir, rel),
    close: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A `.vscode/mcp.json` text with these servers. */
export function mcpJson(servers: Record<string, unknown>): string {
  return JSON.stringify({ servers }, null, 2);
}

/** server-everything as a stdio entry (a real MCP server from the registry). */
export const EVERYTHING = { command: process.execPath, args: [EVERYTHING_JS, 'stdio'] };

/** The listed-tools fixture serving `toolsFile` (a JSON array of tools). */
export function listedTools(toolsFile: string, label: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [LISTED_TOOLS, '--tools', toolsFile, '--label', label] };
}

/** The environment a CLI run gets: no token, no Ollama, approvals and state in the temp folder. */
export function cliEnv(ws: HostileWorkspace, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OLLAMA_HOST: '127.0.0.1:9',
    MCP_LENS_APPROVALS_FILE: join(ws.outside, 'approvals.json'),
    XDG_STATE_HOME: ws.state,
    ...extra,
  };
  if (!('MCP_LENS_TOKEN' in extra)) delete env.MCP_LENS_TOKEN;
  return env;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to its end; fails the test after `ms` (a hang is a finding, not a wait). */
export function runCli(args: string[], env: NodeJS.ProcessEnv, ms = 90_000): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collect(child, ms);
}

function collect(child: ChildProcess, ms: number): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mcp-lens did not finish within ${ms} ms\nstderr:\n${stderr}`));
    }, ms);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A CLI process left running (serve); `waitFor` resolves once its stderr matches. */
export interface RunningCli {
  child: ChildProcess;
  stderr(): string;
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
  /** Signals it (none: only waits) and waits for its end, with a deadline: not ending is a finding. */
  stop(signal: NodeJS.Signals | undefined, ms?: number): Promise<number | null>;
}

const started = new Set<ChildProcess>();

export function startCli(args: string[], env: NodeJS.ProcessEnv, stdin: 'pipe' | 'ignore' = 'ignore'): RunningCli {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    env,
    stdio: [stdin, 'pipe', 'pipe'],
  });
  started.add(child);
  child.once('close', () => started.delete(child));
  return watchProcess(child);
}

/** Kills whatever startCli left running (a test that failed midway): for `after` hooks. */
export function killStarted(): void {
  for (const child of started) child.kill('SIGKILL');
}

function watchProcess(child: ChildProcess): RunningCli {
  let err = '';
  const waiters = new Set<() => void>();
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    err += c;
    for (const w of waiters) w();
  });
  child.stdout?.resume();
  const exited = new Promise<number | null>((r) =>
    child.once('close', (code) => (r(code), waiters.forEach((w) => w()))),
  );
  return {
    child,
    stderr: () => err,
    exited,
    waitFor(pattern, ms = 90_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = pattern.exec(err);
          if (m) return done(() => resolve(m));
          if (child.exitCode !== null || child.signalCode !== null)
            done(() => reject(new Error(`mcp-lens exited before ${pattern}:\n${err}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`timed out waiting for ${pattern}:\n${err}`))), ms);
        const done = (f: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          f();
        };
        waiters.add(check);
        check();
      });
    },
    async stop(signal, ms = 60_000) {
      if (signal && child.exitCode === null && child.signalCode === null) child.kill(signal);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>(
        (_, reject) =>
          (timer = setTimeout(
            () => reject(new Error(`mcp-lens did not end within ${ms} ms${signal ? ` of ${signal}` : ''}:\n${err}`)),
            ms,
          )),
      );
      try {
        return await Promise.race([exited, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * The CLI on a pseudo-terminal (util-linux `script`), as a person runs it: prompts appear.
 * `answer(prompt, reply)` types `reply` once the output matches `prompt`. Returns everything
 * the terminal showed, raw (escape sequences included).
 */
export async function runCliOnTerminal(
  args: string[],
  env: NodeJS.ProcessEnv,
  answers: [RegExp, string][],
  ms = 90_000,
): Promise<CliRun> {
  const command = [process.execPath, '--import', 'tsx', CLI, ...args]
    .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: { ...env, TERM: 'dumb' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let next = 0;
  child.stdout!.setEncoding('utf8').on('data', (c: string) => {
    out += c;
    while (next < answers.length && answers[next]![0].test(out)) child.stdin!.write(answers[next++]![1]);
  });
  const run = await collect(child, ms);
  return { ...run, stdout: out };
}

/** A loopback HTTP server that records every request (method, path, headers) and answers with `reply`. */
export interface Recorder {
  url: string;
  port: number;
  requests: { method: string; path: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

export async function recorder(
  reply: (path: string) => { status: number; body: string } = () => ({ status: 200, body: '{}' }),
): Promise<Recorder> {
  const requests: Recorder['requests'] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    req.resume();
    const r = reply(req.url ?? '');
    res.writeHead(r.status, { 'content-type': 'application/json' });
    res.end(r.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A token strong enough for MCP_LENS_TOKEN (256 random bits, hex). */
export function strongToken(): string {
  return [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** `mcp-lens serve --http` on a workspace, with SDK clients that connect to it with its token. */
export interface ServedGateway {
  serve: RunningCli;
  url: string;
  token: string;
  connect(): Promise<Client>;
  /** Closes the clients, stops the CLI with SIGTERM and waits for its end. */
  close(): Promise<void>;
}

/**
 * Serves the workspace over HTTP; resolves once the gateway listens and each server named in
 * `ready` logged that it is ready (its tools are in the catalog).
 */
export async function serveHttp(
  ws: HostileWorkspace,
  extraEnv: Record<string, string> = {},
  ready: string[] = [],
  config = ws.path('.vscode/mcp.json'),
): Promise<ServedGateway> {
  const token = strongToken();
  // Info level: "[server] ready: N tools" is an info line.
  const env = cliEnv(ws, { MCP_LENS_TOKEN: token, ...(ready.length > 0 && { MCP_LENS_LOG: 'info' }), ...extraEnv });
  const serve = startCli(['serve', '--http', '--workspace', ws.dir, '--config', config], env);
  const url = (await serve.waitFor(/MCP Lens listening on (\S+)/))[1]!;
  await serve.waitFor(/Press Ctrl\+C to stop/);
  for (const name of ready) await serve.waitFor(new RegExp(`\\[${name}\\] ready: \\d+ tools`));
  const clients: Client[] = [];
  return {
    serve,
    url,
    token,
    async connect() {
      const c = new Client({ name: 'security-suite', version: '1.0.0' });
      await c.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      clients.push(c);
      return c;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await serve.stop('SIGTERM');
    },
  };
}
