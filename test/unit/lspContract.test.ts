// The sidecar's LSP contract: every custom message is declared once in protocol/lspProtocol.ts
// as a RequestType/NotificationType, listed by direction in LSP_MESSAGES, registered by the
// sidecar with that object (not a method string), and used by the extension with that object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { NotificationType, RequestType, RequestType0, type MessageSignature } from 'vscode-jsonrpc';
import type { Connection } from 'vscode-languageserver/node';
import * as protocol from '../../protocol/lspProtocol';
import { silentLogger } from '../../server/src/core/logger';
import { SidecarConnection } from '../../server/src/lsp/connection';

const ROOT = join(__dirname, '..', '..');
const { LSP_MESSAGES } = protocol;
const clientToServer = [...LSP_MESSAGES.clientToServer.requests, ...LSP_MESSAGES.clientToServer.notifications];
const serverToClient = [...LSP_MESSAGES.serverToClient.requests, ...LSP_MESSAGES.serverToClient.notifications];

/** Every message object the module exports, by export name. */
const isMessage = (v: unknown): v is MessageSignature =>
  v instanceof RequestType || v instanceof RequestType0 || v instanceof NotificationType;
const declared = (Object.entries(protocol) as [string, unknown][]).filter((e): e is [string, MessageSignature] =>
  isMessage(e[1]),
);
const nameOf = new Map<unknown, string>(declared.map(([name, type]) => [type, name]));

function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') ? [{ file: relative(ROOT, p), text: readFileSync(p, 'utf8') }] : [];
  });
}

test('every declared message is listed once, by direction, under a unique mcpLens/ method', () => {
  assert.ok(declared.length >= 15, `found ${declared.length} message objects`);
  const listed: unknown[] = [...clientToServer, ...serverToClient];
  assert.deepEqual(
    declared.map(([name]) => name).filter((name) => listed.filter((t) => nameOf.get(t) === name).length !== 1),
    [],
    'each exported RequestType/NotificationType appears in exactly one LSP_MESSAGES list',
  );
  assert.equal(listed.length, declared.length, 'LSP_MESSAGES lists only exported objects');
  const methods = declared.map(([, t]) => t.method);
  assert.equal(new Set(methods).size, methods.length, 'no two messages share a method');
  for (const m of methods) assert.match(m, /^mcpLens\/[a-z][A-Za-z]+$/);
  for (const t of LSP_MESSAGES.clientToServer.notifications) assert.ok(nameOf.get(t)?.endsWith('Notification'));
  for (const t of LSP_MESSAGES.clientToServer.requests) assert.ok(nameOf.get(t)?.endsWith('Request'));
});

test('the sidecar handles every client → server message, registered with its declared object', () => {
  const registered: unknown[] = [];
  const record = (type: unknown) => void registered.push(type);
  const fake = {
    onInitialize: () => undefined,
    onInitialized: () => undefined,
    onShutdown: () => undefined,
    onRequest: record,
    onNotification: record,
    sendNotification: async () => undefined,
  } as unknown as Connection;
  new SidecarConnection(fake, silentLogger);
  assert.deepEqual(
    registered.filter((t) => typeof t === 'string'),
    [],
    'no handler is registered by method string',
  );
  const names = (ts: readonly unknown[]) =>
    ts.map((t) => nameOf.get(t) ?? `undeclared ${String((t as { method?: string }).method)}`).sort();
  assert.deepEqual(names(registered), names(clientToServer));
});

test('the sidecar sends every server → client message, and the extension handles each', () => {
  const lsp = sources(join(ROOT, 'server', 'src', 'lsp'));
  const client = sources(join(ROOT, 'client', 'src'));
  for (const type of serverToClient) {
    const name = nameOf.get(type)!;
    const isRequest = (LSP_MESSAGES.serverToClient.requests as readonly unknown[]).includes(type);
    const sent = lsp.filter((s) =>
      new RegExp(`(${isRequest ? 'sendRequest' : 'sendNotification|notification'})\\(\\s*${name}\\b`).test(s.text),
    );
    assert.ok(sent.length > 0, `server/src/lsp sends ${name}`);
    const handled = client.filter((s) =>
      new RegExp(`${isRequest ? 'onRequest' : 'onNotification'}\\(\\s*${name}\\b`).test(s.text),
    );
    assert.ok(handled.length > 0, `client/src registers a handler for ${name}`);
  }
  for (const t of LSP_MESSAGES.serverToClient.requests) assert.ok(nameOf.get(t)?.endsWith('Request'));
});

test('the extension sends every client → server message through the typed Sidecar API', () => {
  const client = sources(join(ROOT, 'client', 'src'));
  for (const type of clientToServer) {
    const name = nameOf.get(type)!;
    const used = client.filter((s) =>
      new RegExp(`\\.(request|notify|sendRequest|sendNotification)\\(\\s*${name}\\b`).test(s.text),
    );
    assert.ok(used.length > 0, `client/src sends ${name}`);
  }
});

test('no method string outside protocol/: both ends use the declared objects', () => {
  const literal = /['"`]mcpLens\/[A-Za-z]/;
  const comment = /^\s*(\*|\/\/|\/\*)/;
  const offenders = ['client/src', 'server/src', 'webview/src']
    .flatMap((d) => sources(join(ROOT, d)))
    .flatMap((s) =>
      s.text
        .split('\n')
        .flatMap((line, i) =>
          literal.test(line) && !comment.test(line) ? [`${s.file}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
  assert.deepEqual(offenders, []);
});
