// The server part of `npm run test:conformance` (run.mjs): the official MCP conformance suite's
// server scenarios against an upstream directly, then through MCP Lens with `exposure: all` and in
// search mode (tools reached through find_tools/get_tool_schema/call_tool), each time through a
// proxy that only undoes MCP Lens's renaming (proxy.mjs). Three suites:
//  - 0.1.16 (the registry's release, `--suite all`) against MCP Lens's own conformance server
//    (test/fixtures/servers/conformance), or what `reference` (run.mjs --reference) names;
//  - main 2025-11-25 and main 2026-07-28 (the repo's copy of the main branch, mainSuite.mjs, each
//    revision's frozen requirement set, `--requirements REV`) against the suite's own reference
//    server (examples/servers/typescript).
// Fails on any scenario that passes directly but not through MCP Lens, unless baseline.json names
// it (per suite and mode) with the reason; and on a baseline entry that now passes.
//
// `reference` (0.1.16 only): a directory holding the suite's reference `everything-server.ts` (its
// dependencies installed) is run with its own tsx on PORT; anything else is a shell command, with
// `{port}` (and $PORT) the port it must listen on. Needs `node esbuild.mjs server` first
// (dist/cli.js); `json` (--json FILE) writes the tables; `suite` (--suite NAME) runs one suite.
//
// As a module: `await runServerSuite({ legacy, main }, { reference, scenario, json, suite })`
// with `legacy.run` from install.mjs and `main` from mainSuite.mjs; resolves `{ ok }`.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
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
  return { url: `http://localhost:${port}/mcp`, label: `reference server (${relative(root, dir) || dir})` };
}

/** One initialize and tools/list through MCP Lens (a session of its own, closed after). */
async function askForTools(url, token) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${token}`,
  };
  const post = (body, extra = {}) =>
    fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
  const clientInfo = { name: 'conformance-runner', version: '1' };
  const init = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo },
  });
  const session = { 'mcp-session-id': init.headers.get('mcp-session-id'), 'mcp-protocol-version': '2025-11-25' };
  await init.text();
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
  await (await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, session)).text();
  await fetch(url, { method: 'DELETE', headers: { ...headers, ...session } });
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
      // info: its "[server] ready" line says when the upstream is up.
      env: { ...process.env, MCP_LENS_TOKEN: token, MCP_LENS_LOG: 'info' },
    },
  );
  const m = await waitForOutput(child, /MCP Lens listening on (http:\/\/\S+)/, 'MCP Lens');
  // `serve` starts its servers once a client first asks for tools: ask, and wait until the upstream
  // is ready, so the first scenario does not race its start.
  const ready = waitForOutput(child, new RegExp(`\\[${SERVER_NAME}\\] ready`), `${SERVER_NAME} behind MCP Lens`);
  await askForTools(m[1], token);
  await ready;
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

/**
 * Runs one suite's scenarios against `url`; resolves `{ results, notScored }`: scenario → 'pass' |
 * 'fail' (a FAILURE check, or no result), and the scenarios the requirement set runs unscored.
 */
async function runSuite(run, url, label, which) {
  const out = mkdtempSync(join(tmpdir(), 'mcp-lens-conformance-results-'));
  process.stderr.write(`\n== ${label}: conformance server ${which.join(' ')} --url ${url}\n`);
  const { stdout, stderr } = await run(['server', '--url', url, ...which, '-o', out], { capture: true });
  const named = which.includes('--scenario') ? [which[which.indexOf('--scenario') + 1]] : [];
  const scenarios = [...named, ...[...stdout.matchAll(/^[✓✗] (\S+): \d+ passed, \d+ failed/gmu)].map((m) => m[1])];
  // `--requirements` lists what it ran but does not score, one per line under "Not scored for …".
  const notScored = new Set([...stdout.matchAll(/^ {2}[✓✗] (\S+) \(([^)]+)\)$/gmu)].map((m) => m[1]));
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
  return { results, notScored };
}

/** The suites: which CLI, which upstream, which arguments (one scenario with `scenario`). */
function suites({ legacy, main }, { reference, scenario, suite }) {
  const all = [
    {
      name: '0.1.16',
      run: legacy.run,
      upstream: reference ?? 'fixture',
      which: scenario ? ['--scenario', scenario] : ['--suite', 'all'],
    },
    ...['2025-11-25', '2026-07-28'].map((revision) => ({
      name: revision,
      run: main.run,
      upstream: main.reference,
      // A requirement set fixes its scenarios; one of them alone runs at that revision.
      which: scenario ? ['--spec-version', revision, '--scenario', scenario] : ['--requirements', revision],
    })),
  ];
  const picked = all.filter((s) => suite === undefined || s.name === suite);
  if (picked.length === 0) throw new Error(`unknown suite ${suite} (${all.map((s) => s.name).join(', ')})`);
  return picked;
}

/**
 * Runs the suites directly and through MCP Lens in each mode, prints a table per suite, and
 * resolves `{ ok }`: false when a scenario that passes directly fails through MCP Lens unexpectedly,
 * or one the baseline expects to fail now passes. Its children are stopped whatever happens.
 */
export async function runServerSuite(clis, args = {}) {
  // Ended with the process too (Ctrl-C, an uncaught error): they run in their own process groups.
  process.once('exit', stopChildren);
  try {
    return await measure(clis, args);
  } finally {
    stopChildren();
    process.off('exit', stopChildren);
  }
}

async function measure(clis, args) {
  const baseline = JSON.parse(readFileSync(join(root, 'scripts/conformance/baseline.json'), 'utf8'));
  const picked = suites(clis, args);
  const tables = {};
  // One upstream (and one MCP Lens per mode in front of it) serves every suite that names it.
  for (const upstreamKey of [...new Set(picked.map((s) => s.upstream))]) {
    const group = picked.filter((s) => s.upstream === upstreamKey);
    const started = Date.now();
    const upstream = await startUpstream(upstreamKey === 'fixture' ? undefined : upstreamKey);
    for (const s of group) {
      const { results, notScored } = await runSuite(s.run, upstream.url, `${s.name} directly`, s.which);
      tables[s.name] = { upstream: upstream.label, notScored: [...notScored], direct: results };
    }
    for (const mode of MODES) {
      const lens = await startLens(upstream.url, mode);
      const proxy = await startProxy({ target: lens.url, token: lens.token, server: SERVER_NAME, mode });
      try {
        for (const s of group)
          tables[s.name][mode] = (
            await runSuite(s.run, proxy.url, `${s.name} through MCP Lens, exposure ${mode}`, s.which)
          ).results;
      } finally {
        await proxy.close();
        await lens.close();
      }
    }
    process.stderr.write(
      `\n${group.map((s) => s.name).join(' and ')}: ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
  const problems = [];
  for (const s of picked) problems.push(...report(s.name, tables[s.name], baseline[s.name] ?? {}));
  if (args.json) writeFileSync(args.json, JSON.stringify(tables, null, 2));
  if (problems.length) {
    process.stdout.write(`\n${problems.length} failed:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
    return { ok: false };
  }
  process.stdout.write(`\nEvery scenario that passes directly passes through MCP Lens in both modes.\n`);
  return { ok: true };
}

/** Prints one suite's table; returns its problems. */
function report(name, table, baseline) {
  const problems = [];
  const rows = [];
  const notScored = new Set(table.notScored);
  for (const scenario of Object.keys(table.direct)) {
    const cells = [notScored.has(scenario) ? `${scenario} (not scored)` : scenario, table.direct[scenario]];
    for (const mode of MODES) {
      const result = table[mode][scenario] ?? 'fail';
      const expected = baseline[mode]?.[scenario];
      cells.push(result === 'fail' && expected ? 'fail (expected)' : result);
      if (table.direct[scenario] !== 'pass') continue;
      if (result === 'fail' && !expected)
        problems.push(`${name}: ${scenario} passes directly but fails through MCP Lens in exposure ${mode}`);
      if (result === 'pass' && expected)
        problems.push(
          `${name}: ${scenario} now passes in exposure ${mode}: remove it from scripts/conformance/baseline.json`,
        );
    }
    rows.push({ cells, scored: !notScored.has(scenario) });
  }
  const scored = rows.filter((r) => r.scored);
  const count = (col) => `${scored.filter((r) => r.cells[col] === 'pass').length}/${scored.length}`;
  const lines = [
    `Suite ${name}; upstream: ${table.upstream}`,
    '| scenario | direct | all | search |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.cells.join(' | ')} |`),
    `| passed (scored) | ${count(1)} | ${count(2)} | ${count(3)} |`,
  ];
  process.stdout.write(`\n${lines.join('\n')}\n`);
  return problems;
}
