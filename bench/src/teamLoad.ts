/**
 * MCP Lens at team size: 100 simulated people, each its own MCP client (its own 2025-era
 * session, so its own principal), doing rounds of find_tools, call_tool and run_code through
 * HAProxy against 1 and 2 replicas of `serve --http --state` on one PostgreSQL, and 2 replicas
 * with one SIGKILLed halfway. The workspace: the recorded workspace's 19 servers replayed over
 * stdio (the catalog) plus server-everything over streamable HTTP, whose get-sum the calls use
 * (a remote server is one connection for every principal; a stdio one would start a process per
 * person). Every person holds the same bearer token: per-person sign-in is not in this build.
 *
 *   npm run bench:team [-- --people 100 --rounds 3 --write bench-results.md]
 *
 * Per scenario: throughput (meta-tool calls per second), p50/p99 per meta-tool, errors (a person
 * whose session was on the killed replica opens a new one and goes on: counted apart), the
 * state database's connections at the end, and each replica's peak RSS (the MCP Lens process
 * alone, /proc/<pid>/status VmHWM).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { benchServers, configServers } from './benchServers';
import { startHaproxy } from './infra/haproxy';
import { freePort, startPostgres, type PostgresCluster } from './infra/postgres';
import { ROOT, callTool, connectClient, startReplica, textOf, type Replica } from './infra/replicas';
import { writeSection } from './markdownSection';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const PEOPLE = arg('people', 100);
const ROUNDS = arg('rounds', 3);
const writeAt = process.argv.indexOf('--write');
const QUERIES = ['add two numbers', 'echo a message back', 'sum of a and b', 'print environment variables'];

type Tool = 'find_tools' | 'call_tool' | 'run_code';
interface Outcome {
  tool: Tool;
  ms: number;
  ok: boolean;
}

interface ScenarioResult {
  name: string;
  replicas: number;
  outcomes: Outcome[];
  seconds: number;
  errors: string[];
  reconnected: number;
  pgConnections: number;
  rssMb: number[];
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function peakRssMb(pid: number | undefined): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : NaN;
  } catch {
    return NaN;
  }
}

/** One person: rounds of find_tools → call_tool → run_code; a session gone is reopened once per loss. */
async function person(
  i: number,
  url: string,
  token: string,
  out: Outcome[],
  errors: string[],
  counters: { reconnected: number },
): Promise<void> {
  let client: Client;
  try {
    client = await connectClient(url, token, `person-${i}`);
  } catch (err) {
    errors.push(`initialize: ${String(err).slice(0, 160)}`);
    out.push({ tool: 'find_tools', ms: 0, ok: false });
    return;
  }
  const timed = async (tool: Tool, f: () => Promise<unknown>): Promise<unknown> => {
    const t0 = performance.now();
    try {
      const r = await f();
      const failed = (r as { isError?: boolean }).isError === true;
      out.push({ tool, ms: performance.now() - t0, ok: !failed });
      if (failed) errors.push(`${tool}: ${textOf(r).slice(0, 160)}`);
      return r;
    } catch (err) {
      if (/Session not found/.test(String(err))) {
        counters.reconnected++;
        await client.close().catch(() => undefined);
        client = await connectClient(url, token, `person-${i}`);
        return timed(tool, f);
      }
      out.push({ tool, ms: performance.now() - t0, ok: false });
      errors.push(`${tool}: ${String(err).slice(0, 160)}`);
      return undefined;
    }
  };
  for (let r = 0; r < ROUNDS; r++) {
    const found = await timed('find_tools', () =>
      client.callTool({ name: 'find_tools', arguments: { query: QUERIES[(i + r) % QUERIES.length]! } }),
    );
    void found;
    await timed('call_tool', () => callTool(client, 'everything_get-sum', { a: i, b: r }));
    await timed('run_code', () =>
      client.callTool({
        name: 'run_code',
        arguments: {
          code: `const a = await call_tool("everything_get-sum", { a: ${i}, b: 1 }); const b = await call_tool("everything_get-sum", { a: ${r}, b: 2 }); return [a, b];`,
        },
      }),
    );
  }
  await client.close().catch(() => undefined);
}

async function scenario(
  name: string,
  count: number,
  killHalfway: boolean,
  env: { cluster: PostgresCluster; workspace: string; config: string; token: string },
): Promise<ScenarioResult> {
  const db = `team_${name.replace(/\W+/g, '_')}`;
  const url = await env.cluster.createDatabase(db);
  const replicas: Replica[] = [];
  for (let i = 1; i <= count; i++)
    replicas.push(
      await startReplica({
        id: `r${i}`,
        workspace: env.workspace,
        token: env.token,
        stateUrl: url,
        args: ['--config', env.config],
        env: { MCP_LENS_LOG: 'warn' },
      }),
    );
  const lb = await startHaproxy(replicas.map((r) => r.port));
  try {
    // Ready: every replica finds and calls get-sum (its catalog is built, the upstream is up).
    for (const r of replicas) {
      const c = await connectClient(r.url, env.token);
      for (;;) {
        const res = (await callTool(c, 'everything_get-sum', { a: 1, b: 1 })) as { isError?: boolean };
        if (!res.isError) break;
        await new Promise((ok) => setTimeout(ok, 200));
      }
      await c.close();
    }
    const outcomes: Outcome[] = [];
    const errors: string[] = [];
    const counters = { reconnected: 0 };
    const t0 = performance.now();
    const people = Array.from({ length: PEOPLE }, (_, i) => person(i, lb.url, env.token, outcomes, errors, counters));
    if (killHalfway) {
      const total = PEOPLE * ROUNDS * 3;
      await new Promise<void>((ok) => {
        const check = setInterval(() => {
          if (outcomes.length >= total / 2) (clearInterval(check), ok());
        }, 20);
      });
      await replicas[0]!.stop('SIGKILL');
    }
    await Promise.all(people);
    const seconds = (performance.now() - t0) / 1000;
    const rssMb = replicas.map((r) => peakRssMb(r.child.pid));
    const pgConnections = await env.cluster.connections(db);
    return {
      name,
      replicas: count,
      outcomes,
      seconds,
      errors,
      reconnected: counters.reconnected,
      pgConnections,
      rssMb,
    };
  } finally {
    await lb.stop();
    await Promise.all(replicas.map((r) => r.stop()));
  }
}

function report(results: ScenarioResult[], command: string, load: string): string {
  const rows = results.map((r) => {
    const per = (t: Tool) => {
      const ms = r.outcomes
        .filter((o) => o.tool === t && o.ok)
        .map((o) => o.ms)
        .sort((a, b) => a - b);
      return `${Math.round(percentile(ms, 50))} / ${Math.round(percentile(ms, 99))}`;
    };
    const failed = r.outcomes.filter((o) => !o.ok).length;
    return `| ${r.name} | ${(r.outcomes.length / r.seconds).toFixed(1)} | ${per('find_tools')} | ${per('call_tool')} | ${per('run_code')} | ${failed} | ${r.reconnected} | ${r.pgConnections} | ${r.rssMb.join(', ')} |`;
  });
  const errorLines = results.flatMap((r) =>
    [...new Set(r.errors)].slice(0, 5).map((e) => `- ${r.name}: ${e.replace(/\s+/g, ' ')}`),
  );
  return [
    '## Team load: 100 people through HAProxy on 1 and 2 replicas',
    '',
    `\`${command}\` — ${PEOPLE} people × ${ROUNDS} rounds of find_tools, call_tool and run_code (two calls inside); load average before: ${load}.`,
    '',
    '| scenario | meta-tool calls/s | find_tools p50 / p99 ms | call_tool p50 / p99 ms | run_code p50 / p99 ms | errors | sessions reopened | PostgreSQL connections (end) | peak RSS per replica MB |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...(errorLines.length
      ? ['Errors, as the clients got them (first five distinct per scenario):', '', ...errorLines, '']
      : []),
  ].join('\n');
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-team-load-'));
  const workspace = join(dir, 'workspace');
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'mcpLens.embedding.enabled': false }));
  const port = await freePort();
  const everything = spawn(
    process.execPath,
    [join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'streamableHttp'],
    { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  await new Promise<void>((ok, fail) => {
    let text = '';
    everything.stderr!.on('data', (d: Buffer) => {
      text += d.toString();
      if (/listening on port/.test(text)) ok();
    });
    everything.once('exit', (code) => fail(new Error(`server-everything exited (${code}): ${text}`)));
  });
  const servers: Record<string, unknown> = configServers(benchServers(dir));
  delete servers['test-everything'];
  servers.everything = { type: 'http', url: `http://127.0.0.1:${port}/mcp` };
  const config = join(workspace, 'mcp.json');
  writeFileSync(config, JSON.stringify({ servers }));
  const cluster = await startPostgres();
  const token = randomBytes(24).toString('hex');
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  try {
    const env = { cluster, workspace, config, token };
    const results: ScenarioResult[] = [];
    results.push(await scenario('1 replica', 1, false, env));
    results.push(await scenario('2 replicas', 2, false, env));
    results.push(await scenario('2 replicas, one killed halfway', 2, true, env));
    const text = report(results, `npm run bench:team -- --people ${PEOPLE} --rounds ${ROUNDS}`, load);
    process.stdout.write(text + '\n');
    if (writeAt >= 0) writeSection(process.argv[writeAt + 1]!, 'team load', text);
  } finally {
    await cluster.stop();
    everything.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exitCode = 1;
});
