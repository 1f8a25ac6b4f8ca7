// The sidecar checks every client → server message's params against the schema declared with the
// message (protocol/lspProtocol.ts) before its handler runs: a bad one is refused with
// InvalidParams naming the message and the field, never its value, and nothing else happens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';
import type { MessageSignature } from 'vscode-jsonrpc';
import {
  CallToolRequest,
  DashboardRequest,
  HoldReloadsRequest,
  RestartServerRequest,
  SearchRequest,
  SignInRequest,
} from '../../protocol/lspProtocol';
import { silentLogger } from '../../server/src/core/logger';
import { SidecarConnection } from '../../server/src/lsp/connection';

type Handler = (params: unknown) => unknown;

/** The handlers SidecarConnection registers, by message, on a connection that only records them. */
function handlers(): { request: Map<string, Handler>; initialize: Handler } {
  const request = new Map<string, Handler>();
  let initialize: Handler = () => undefined;
  const fake = {
    onInitialize: (h: (p: { initializationOptions: unknown }) => unknown) =>
      (initialize = (o) => h({ initializationOptions: o })),
    onInitialized: () => undefined,
    onShutdown: () => undefined,
    onRequest: (type: MessageSignature, h: Handler) => request.set(type.method, h),
    onNotification: () => undefined,
    sendNotification: async () => undefined,
    sendRequest: async () => undefined,
  } as unknown as Connection;
  new SidecarConnection(fake, silentLogger);
  return { request, initialize };
}

async function refusal(run: () => unknown): Promise<ResponseError<unknown>> {
  try {
    await run();
  } catch (err) {
    assert.ok(err instanceof ResponseError, String(err));
    return err;
  }
  assert.fail('the message was not refused');
}

const CASES: [MessageSignature, unknown, string][] = [
  [SearchRequest, { query: 7 }, 'search: "query" must be a string'],
  [SearchRequest, { query: 'x', limit: 0 }, 'search: "limit" must be at least 1'],
  [CallToolRequest, { name: 'x', arguments: [1] }, 'callTool: "arguments" must be an object'],
  [CallToolRequest, { arguments: {} }, 'callTool: needs "name"'],
  [RestartServerRequest, { name: 5 }, 'restartServer: "name" must be a string'],
  [SignInRequest, undefined, 'signIn: must be an object'],
  [HoldReloadsRequest, { hold: 'yes' }, 'holdReloads: "hold" must be a boolean'],
  [DashboardRequest, { method: 'nope' }, 'dashboard: "method" must be one of "search", '],
];

test('each bad params is refused with InvalidParams naming the message and the field', async () => {
  const { request } = handlers();
  for (const [type, params, says] of CASES) {
    const err = await refusal(() => request.get(type.method)!(params));
    assert.equal(err.code, ErrorCodes.InvalidParams, `${type.method}: ${err.message}`);
    assert.ok(err.message.startsWith(says), `${type.method}: ${err.message}`);
  }
});

test('good params reach the handler (which then needs the session), and a value never comes back', async () => {
  const { request } = handlers();
  const err = await refusal(() => request.get(SearchRequest.method)!({ query: 'add', limit: 3 }));
  assert.equal(err.code, ErrorCodes.ServerNotInitialized);
  const secret = await refusal(() => request.get(RestartServerRequest.method)!({ name: { token: 's3cret' } }));
  assert.ok(!secret.message.includes('s3cret'), secret.message);
});

test('initialize refuses options it cannot start from, naming the field', async () => {
  const { initialize } = handlers();
  for (const [options, says] of [
    [{ settings: {} }, 'initializationOptions: needs "storageDir"'],
    [{ storageDir: '/s', settings: {}, approvals: { a: 1 } }, 'initializationOptions: "approvals.a" must be a string'],
    [
      { storageDir: '/s', settings: {}, gateway: { token: 't', port: 70000 } },
      'initializationOptions: "gateway.port" must be at most 65535',
    ],
  ] as const) {
    const err = await refusal(() => initialize(options));
    assert.equal(err.code, ErrorCodes.InvalidParams);
    assert.equal(err.message, says);
  }
});
