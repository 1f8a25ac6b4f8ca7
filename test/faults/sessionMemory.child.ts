/**
 * Child process of gatewayAbuse.test.ts (run with --expose-gc): opens 1,000 MCP sessions on a
 * real GatewayHttpServer, abandons them, waits for the idle sweep to close them all, and
 * prints heapUsed/RSS (MB, after a full GC) at the start, with every session open, and after
 * expiry, as one JSON line on stdout. The gateway's idle clock stands still while the sessions
 * open (however long that takes on a loaded machine, none expires early) and then jumps past
 * the idle time, so the real sweep closes all of them.
 */
import { silentLogger } from '../../server/src/core/logger';
import { GatewayHttpServer } from '../../server/src/gateway/http';
import { startLens, until } from '../fixtures/gatewayLens';

const TOKEN = 'memory-token';
const SESSIONS = Number(process.env.SESSIONS ?? 1000);

function measure(): { heapMb: number; rssMb: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  return { heapMb: Math.round((m.heapUsed / 1048576) * 10) / 10, rssMb: Math.round(m.rss / 1048576) };
}

async function openSession(url: string): Promise<string> {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${TOKEN}`,
  };
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'abandoner', version: '1' } },
  };
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(init) });
  const id = res.headers.get('mcp-session-id');
  await res.text();
  if (res.status !== 200 || !id) throw new Error(`initialize answered ${res.status}`);
  const withId = { ...headers, 'mcp-session-id': id };
  await (
    await fetch(url, {
      method: 'POST',
      headers: withId,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    })
  ).text();
  const list = await fetch(url, {
    method: 'POST',
    headers: withId,
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  await list.text();
  return id;
}

async function main(): Promise<void> {
  const world = await startLens({});
  const idleMs = Number(process.env.IDLE_MS ?? 1000);
  let clock = 0;
  const http = new GatewayHttpServer({
    lens: world.lens,
    token: TOKEN,
    log: silentLogger,
    sessionIdleMs: idleMs,
    now: () => clock,
    maxSessions: SESSIONS,
  });
  const { url } = await http.start();
  // Warm up the code paths once so the baseline includes compiled code, not just an idle heap.
  for (let i = 0; i < 20; i++) {
    const id = await openSession(url);
    await (
      await fetch(url, { method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': id } })
    ).text();
  }
  await until('warm-up sessions closed', () => http.sessionCount() === 0 && http.gateway.sessionCount() === 0, 20_000);
  const start = measure();
  for (let batch = 0; batch < SESSIONS / 50; batch++)
    await Promise.all(Array.from({ length: 50 }, () => openSession(url)));
  const open = { ...measure(), sessions: http.sessionCount(), gatewaySessions: http.gateway.sessionCount() };
  clock += idleMs + 1; // every session is now idle for longer than idleMs: the next sweep closes them
  await until(
    'abandoned sessions expire',
    () => http.sessionCount() === 0 && http.gateway.sessionCount() === 0,
    60_000,
  );
  const expired = measure();
  process.stdout.write(JSON.stringify({ start, open, expired }) + '\n');
  await http.close();
  await world.close();
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
