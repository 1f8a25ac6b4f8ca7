// The server part of `npm run test:conformance` (run.mjs): the official MCP conformance suite
// (`conformance server --suite all`) against an upstream directly, then through MCP Lens with
// `exposure: all` and in search mode (tools reached through find_tools/get_tool_schema/call_tool),
// each time through a proxy that only undoes MCP Lens's renaming (proxy.mjs). Fails on any
// scenario that passes directly but not through MCP Lens, unless baseline.json names it with the
// reason a gateway cannot pass.
//
// The upstream is MCP Lens's own conformance server (test/fixtures/servers/conformance) unless
// `reference` (run.mjs --reference <dir|command>) names another: a directory holding the suite's
// reference `everything-server.ts` (its dependencies installed) is run with its own tsx on PORT;
// anything else is a shell command, with `{port}` (and $PORT) the port it must listen on.
// Needs `node esbuild.mjs server` first (dist/cli.js); `json` (--json FILE) writes the table.
//
// As a module: `await runServerSuite(run, { reference, scenario, json })` with `run` from
// install.mjs; resolves `{ ok }`.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProxy } from './proxy.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER_NAME = 'everything';
const MODES = ['all', 'search'];
const START_TIMEOUT_MS = 60_000;

const children = new Set();
function startChild(command, args, options) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...options });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}
function stopChildren() {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

/** Resolves with the first match of `pattern` in the child's output; rejects if it exits or times out first. */
function waitForOutput(child, pattern, what) {
  return new Promise((resolvePromise, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`${what} did not start within ${START_TIMEOUT_MS / 1000} s:\n${seen.slice(-2000)}`)),
      START_TIMEOUT_MS,
    );
    const look = (chunk) => {
      seen += chunk;
      const m = pattern.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolvePromise(m);
      }
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before it was ready:\n${seen.slice(-2000)}`));
    });
  });
}

function freePort() {
  return new Promise((resolvePromise) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolvePromise(port));
    });
  });
}

async function waitForPort(port, child, what) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let exited = false;
  child.on('exit', () => (exited = true));
  while (Date.now() < deadline && !exited) {
    const open = await new Promise((r) => {
      const socket = connect(port, '127.0.0.1', () => (socket.end(), r(true)));
      socket.on('error', () => r(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not listen on port ${port}`);
}

/** Starts the upstream; resolves with its /mcp URL. */
async function startUpstream(reference) {
  if (!reference) {
    const child = startChild(
      process.execPath,
      ['--import', 'tsx', join(root, 'test/fixtures/servers/conformance/main.ts'), '--port', '0'],
      { cwd: root },
    );
    const m = await waitForOutput(child, /listening (http:\/\/\S+)/, "MCP Lens's conformance upstream");
    return {
      url: m[1].replace('127.0.0.1', 'localhost'),
      label: "MCP Lens's conformance upstream (test/fixtures/servers/conformance)",
    };
  }
  const port = await freePort();
  const dir = resolve(reference);
  let child;
  if (existsSync(join(dir, 'everything-server.ts'))) {
    const tsx = join(dir, 'node_modules/.bin/tsx');
    if (!existsSync(tsx)) throw new Error(`${dir}: run npm install there first (no node_modules/.bin/tsx)`);
    child = startChild(tsx, ['everything-server.ts'], { cwd: dir, env: { ...process.env, PORT: String(port) } });
  } else {
    child = startChild('sh', ['-c', reference.replaceAll('{port}', String(port))], {
      env: { ...process.env, PORT: String(port) },
    });
  }
  await waitForPort(port, child, 'the reference server');
  return { url: `http://localhost:${port}/mcp`, label: `reference server (${reference})` };
}

/** Starts `mcp-lens serve --http` over a workspace whose only server is the upstream. */
async function startLens(upstreamUrl, exposure) {
  // Another build of MCP Lens can be measured the same way (MCP_LENS_CONFORMANCE_CLI=<its dist/cli.js>).
  const cli = process.env.MCP_LENS_CONFORMANCE_CLI ?? join(root, 'dist/cli.js');
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run `node esbuild.mjs server` first');
  const ws = mkdtempSync(join(tmpdir(), 'mcp-lens-conformance-'));
  writeFileSync(
    join(ws, 'mcp.json'),
    JSON.stringify({ servers: { [SERVER_NAME]: { type: 'http', url: upstreamUrl } } }),
  );
  mkdirSync(join(ws, '.vscode'));
  writeFileSync(
    join(ws, '.vscode', 'settings.json'),
    JSON.stringify({ mcpLens: { exposure, embedding: { enabled: false } } }),
  );
  const token = randomBytes(32).toString('hex');
  const child = startChild(
    process.execPath,
    [cli, 'serve', '--http', '0', '--workspace', ws, '--config', join(ws, 'mcp.json'), '--trust'],
    {
      cwd: ws,
      env: { ...process.env, MCP_LENS_TOKEN: token },
    },
  );
  const m = await waitForOutput(child, /MCP Lens listening on (http:\/\/\S+)/, 'MCP Lens');
  // The upstream is listed once it is ready: wait for it, so the first scenario does not race its start.
  await waitForOutput(child, new RegExp(`\\[${SERVER_NAME}\\] ready`), `${SERVER_NAME} behind MCP Lens`).catch(
    () => undefined,
  );
  return {
    url: m[1],
    token,
    async close() {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      rmSync(ws, { recursive: true, force: true });
    },
  };
}

/** Runs the whole suite against `url`; resolves scenario → 'pass' | 'fail' (a FAILURE check, or no result). */
async function runSuite(run, url, label, scenario) {
  const out = mkdtempSync(join(tmpdir(), 'mcp-lens-conformance-results-'));
  const which = scenario ? ['--scenario', scenario] : ['--suite', 'all'];
  process.stderr.write(`\n== ${label}: conformance server ${which.join(' ')} --url ${url}\n`);
  const { stdout, stderr } = await run(['server', '--url', url, ...which, '-o', out], { capture: true });
  const scenarios = scenario
    ? [scenario]
    : [...stdout.matchAll(/^[✓✗] (\S+): \d+ passed, \d+ failed/gmu)].map((m) => m[1]);
  const results = {};
  for (const scenario of scenarios) results[scenario] = 'fail';
  for (const entry of readdirSync(out)) {
    const m = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(entry);
    if (!m || !existsSync(join(out, entry, 'checks.json'))) continue;
    const checks = JSON.parse(readFileSync(join(out, entry, 'checks.json'), 'utf8'));
    const failures = checks.filter((c) => c.status === 'FAILURE');
    results[m[1]] = failures.length ? 'fail' : 'pass';
    for (const c of failures) process.stderr.write(`   ${m[1]}: ${c.id}: ${c.errorMessage ?? 'failed'}\n`);
  }
  if (process.env.MCP_LENS_CONFORMANCE_KEEP) process.stderr.write(`   results kept in ${out}\n`);
  else rmSync(out, { recursive: true, force: true });
  if (scenarios.length === 0)
    throw new Error(`the suite ran no scenario against ${url}:\n${(stdout + stderr).slice(-3000)}`);
  const failed = Object.entries(results).filter(([, r]) => r === 'fail');
  process.stderr.write(
    `   ${Object.keys(results).length - failed.length}/${Object.keys(results).length} passed${failed.length ? `; failed: ${failed.map(([s]) => s).join(', ')}` : ''}\n`,
  );
  return results;
}

/**
 * Runs the suite directly and through MCP Lens in each mode, prints the table, and resolves
 * `{ ok }`: false when a scenario that passes directly fails through MCP Lens unexpectedly, or
 * one the baseline expects to fail now passes. Its children are stopped whatever happens.
 */
export async function runServerSuite(run, { reference, scenario, json } = {}) {
  // Ended with the process too (Ctrl-C, an uncaught error): they run in their own process groups.
  process.once('exit', stopChildren);
  try {
    return await measure(run, { reference, scenario, json });
  } finally {
    stopChildren();
    process.off('exit', stopChildren);
  }
}

async function measure(run, args) {
  const baseline = JSON.parse(readFileSync(join(root, 'scripts/conformance/baseline.json'), 'utf8'));
  const upstream = await startUpstream(args.reference);
  const table = { upstream: upstream.label, direct: await runSuite(run, upstream.url, 'directly', args.scenario) };
  for (const mode of MODES) {
    const lens = await startLens(upstream.url, mode);
    const proxy = await startProxy({ target: lens.url, token: lens.token, server: SERVER_NAME, mode });
    try {
      table[mode] = await runSuite(run, proxy.url, `through MCP Lens, exposure ${mode}`, args.scenario);
    } finally {
      await proxy.close();
      await lens.close();
    }
  }

  const problems = [];
  const rows = [];
  for (const scenario of Object.keys(table.direct)) {
    const cells = [scenario, table.direct[scenario]];
    for (const mode of MODES) {
      const result = table[mode][scenario] ?? 'fail';
      const expected = baseline[mode]?.[scenario];
      cells.push(result === 'fail' && expected ? 'fail (expected)' : result);
      if (table.direct[scenario] !== 'pass') continue;
      if (result === 'fail' && !expected)
        problems.push(`${scenario} passes directly but fails through MCP Lens in exposure ${mode}`);
      if (result === 'pass' && expected)
        problems.push(`${scenario} now passes in exposure ${mode}: remove it from scripts/conformance/baseline.json`);
    }
    rows.push(cells);
  }
  const count = (col) => `${rows.filter((r) => r[col] === 'pass').length}/${rows.length}`;
  const lines = [
    `Upstream: ${table.upstream}`,
    '| scenario | direct | all | search |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    `| passed | ${count(1)} | ${count(2)} | ${count(3)} |`,
  ];
  process.stdout.write(`\n${lines.join('\n')}\n`);
  if (args.json) writeFileSync(args.json, JSON.stringify(table, null, 2));
  if (problems.length) {
    process.stdout.write(`\n${problems.length} failed:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
    return { ok: false };
  }
  process.stdout.write(`\nEvery scenario that passes directly passes through MCP Lens in both modes.\n`);
  return { ok: true };
}
