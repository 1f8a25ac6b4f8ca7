/**
 * Where `mcp-lens serve`'s own CPU goes before its first answers while 22 servers spawn: the
 * start-up bench's workspace (startup.ts), `node --cpu-prof`, and the profile cut at the first
 * tools/list answered and at the first find_tools answered (cpuProfileSummary.ts, on the
 * profile's clock: process.hrtime's). Warm (the catalog cache of a run before) and cold (a
 * fresh state folder); the gateway is closed right after its first find_tools answer.
 *
 *   node --import tsx bench/src/startupProfile.ts [--runs N] [--top N] [--keep DIR]
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { formatSummary, summarizeProfile } from './cpuProfileSummary';
import { workspace, type BenchWorkspace } from './startup';

const ROOT = resolve(__dirname, '../..');

/** Outermost phases of a start, by the functions they run under (first match wins, outermost). */
const PHASES: Record<string, RegExp> = {
  'bundle load': /^executeUserEntryPoint$/,
  'LensApp.start': /^start$/,
  'index sync': /^sync$|setTools/,
  'serveStdio + session': /serveStdio|createSessionServer/,
  'tools/list': /exposedDefinitions|toolsFor/,
  'find_tools (handler, search, answer)': /^runMetaTool$|^search$|^findTools$/,
  'spawning servers': /^spawn$/,
};

interface ProfiledStart {
  listMs: number;
  answerMs: number;
  profile: string;
  listAtUs: number;
  answerAtUs: number;
  /** When the last awaited server's "ready" line came (undefined when none was awaited). */
  allMs?: number;
  allAtUs?: number;
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** `waitFor`: servers to wait for (their "ready" lines) before closing: the warm-up fills the catalog cache. */
async function profiledStart(
  ws: Pick<BenchWorkspace, 'dir' | 'config' | 'state' | 'cache'>,
  profDir: string,
  waitFor: string[] = [],
): Promise<ProfiledStart> {
  const before = new Set(readdirSync(profDir));
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      '--cpu-prof',
      '--cpu-prof-interval',
      '200',
      '--cpu-prof-dir',
      profDir,
      join(ROOT, 'dist', 'cli.js'),
      'serve',
      '--workspace',
      ws.dir,
      '--config',
      ws.config,
    ],
    cwd: ROOT,
    env: { ...process.env, MCP_LENS_LOG: 'info', XDG_STATE_HOME: ws.state, XDG_CACHE_HOME: ws.cache } as Record<
      string,
      string
    >,
    stderr: 'pipe',
  });
  const ready = new Set<string>();
  let allReady!: () => void;
  const all = new Promise<void>((r) => (allReady = r));
  let allAt: { ms: number; us: number } | undefined;
  let buffer = '';
  transport.stderr?.on('data', (d: Buffer) => {
    buffer += d.toString();
    for (const m of buffer.matchAll(/\] \[([^\]]+)\] ready: \d+ tools/g)) ready.add(m[1]!);
    buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
    if (!allAt && waitFor.length > 0 && waitFor.every((n) => ready.has(n)))
      allAt = { ms: performance.now() - started, us: nowUs() };
    if (waitFor.every((n) => ready.has(n))) allReady();
  });
  const client = new Client({ name: 'mcp-lens-startup-profile', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  const listMs = performance.now() - started;
  const listAtUs = nowUs();
  await client.callTool({ name: 'find_tools', arguments: { query: 'create an issue in a repository' } });
  const answerMs = performance.now() - started;
  const answerAtUs = nowUs();
  await all;
  if (waitFor.length > 0) await tokenCountsKept(ws.state, waitFor.length);
  const exited = new Promise<void>((r) => (transport.onclose = r));
  await client.close();
  await exited;
  // The profile is written as the process exits, a moment after its pipes close.
  let file: string | undefined;
  for (let i = 0; i < 200 && !file; i++) {
    file = readdirSync(profDir).find((f) => !before.has(f) && f.endsWith('.cpuprofile'));
    if (!file) await new Promise((r) => setTimeout(r, 50));
  }
  if (!file) throw new Error('no CPU profile written');
  return {
    listMs,
    answerMs,
    profile: join(profDir, file),
    listAtUs,
    answerAtUs,
    ...(allAt && { allMs: allAt.ms, allAtUs: allAt.us }),
  };
}

/**
 * Until the catalog cache holds the tools/list token count of every server (counted in the
 * background once they are up; a warm start's find_tools reads them), polled: nothing announces it.
 */
async function tokenCountsKept(state: string, servers: number): Promise<void> {
  const root = join(state, 'mcp-lens', 'workspaces');
  for (let i = 0; i < 300; i++) {
    for (const ws of existsSync(root) ? readdirSync(root) : []) {
      const file = join(root, ws, 'catalog.json');
      const counts = existsSync(file)
        ? (JSON.parse(readFileSync(file, 'utf8')) as { tokenCounts?: object }).tokenCounts
        : undefined;
      if (counts && Object.keys(counts).length >= servers) return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the catalog cache never held every server's token count");
}

function report(label: string, run: ProfiledStart, top: number): string {
  const profile = JSON.parse(readFileSync(run.profile, 'utf8')) as Parameters<typeof summarizeProfile>[0];
  const out = [
    `### ${label}: tools/list at ${Math.round(run.listMs)} ms, find_tools at ${Math.round(run.answerMs)} ms (${run.profile}, cut at ${run.listAtUs} / ${run.answerAtUs}${run.allAtUs === undefined ? '' : ` / ${run.allAtUs}`} µs)`,
  ];
  const cuts: [string, number][] = [
    ['to the first tools/list', run.listAtUs],
    ['to the first find_tools answer', run.answerAtUs],
  ];
  if (run.allAtUs !== undefined) cuts.push([`to all connected (${Math.round(run.allMs!)} ms)`, run.allAtUs]);
  for (const [what, until] of cuts) {
    const phases = Object.entries(PHASES).map(
      ([name, re]) => `${name} ${summarizeProfile(profile, 1, re, undefined, until).focus!.totalMs} ms`,
    );
    out.push(
      `#### ${what}`,
      `phases (total under): ${phases.join(', ')}`,
      formatSummary(summarizeProfile(profile, top, undefined, undefined, until)),
    );
  }
  return out.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '1' },
      top: { type: 'string', default: '30' },
      keep: { type: 'string' },
    },
  });
  const profDir = values.keep ? resolve(values.keep) : mkdtempSync(join(tmpdir(), 'mcp-lens-startup-prof-'));
  mkdirSync(profDir, { recursive: true });
  const ws = workspace(false);
  try {
    // Warm-up, twice. The first start (cold) fills the catalog cache, but it closes once every
    // server is up, before its index has read the complete catalog (that sync waits for the
    // servers to settle): the catalog's reading (catalog-tokens.json) is not kept yet. The second
    // reads it and keeps it as it closes, so the warm starts profiled are a warm start's usual
    // case (a session long enough to settle), not one that tokenizes the whole catalog again.
    await profiledStart(ws, profDir, Object.keys(ws.servers));
    await profiledStart(ws, profDir, Object.keys(ws.servers));
    for (let i = 0; i < Number(values.runs); i++) {
      process.stdout.write(
        `${report('warm', await profiledStart(ws, profDir, Object.keys(ws.servers)), Number(values.top))}\n\n`,
      );
      const cold = { ...ws, state: mkdtempSync(join(ws.dir, 'cold-state-')) };
      // Both are also cut when the last server is ready: what the gateway did during the whole spawn storm.
      process.stdout.write(
        `${report('cold', await profiledStart(cold, profDir, Object.keys(ws.servers)), Number(values.top))}\n\n`,
      );
    }
  } finally {
    rmSync(ws.dir, { recursive: true, force: true });
    if (!values.keep) rmSync(profDir, { recursive: true, force: true });
  }
}

if (require.main === module)
  main().catch((err: unknown) => {
    process.stderr.write(`startup profile failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  });
