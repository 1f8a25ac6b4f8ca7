// The 2026-07-28 envelope and HTTP headers, read and refused in the revision's order and terms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readEnvelope } from '../../server/src/core/revision/envelope';
import {
  checkModernHttpRequest,
  decodeHeaderValue,
  encodeHeaderValue,
} from '../../server/src/core/revision/standardHeaders';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
};

test('an envelope is read whole, or refused with the code its fault earns', () => {
  const ok = readEnvelope({ _meta: { ...META, 'io.modelcontextprotocol/logLevel': 'warning' } });
  assert.deepEqual(ok, { revision: '2026-07-28', capabilities: { sampling: {} }, logLevel: 'warning' });
  const cases: Array<[string, unknown, number]> = [
    ['no params', undefined, -32602],
    ['no _meta', { name: 'x' }, -32602],
    ['no version', { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } }, -32602],
    ['no capabilities', { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }, -32602],
    ['capabilities not an object', { _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': [] } }, -32602],
    [
      'clientInfo without a version',
      { _meta: { ...META, 'io.modelcontextprotocol/clientInfo': { name: 'a' } } },
      -32602,
    ],
    ['an unknown log level', { _meta: { ...META, 'io.modelcontextprotocol/logLevel': 'loud' } }, -32602],
    ['a legacy revision', { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } }, -32022],
    ['an unknown revision', { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': 'v999' } }, -32022],
  ];
  for (const [what, params, code] of cases) {
    const r = readEnvelope(params);
    assert.ok('code' in r, what);
    assert.equal(r.code, code, what);
  }
  const unsupported = readEnvelope({ _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': 'v999' } });
  assert.deepEqual('data' in unsupported && unsupported.data, { supported: ['2026-07-28'], requested: 'v999' });
});

test('over HTTP the headers are checked against the body after the envelope shape, before the revision', () => {
  const body = (method: string, params: Record<string, unknown> = {}) => ({
    method,
    params: { ...params, _meta: META },
  });
  const headers = (h: Record<string, string>) => ({ 'mcp-protocol-version': '2026-07-28', ...h });
  const code = (r: ReturnType<typeof checkModernHttpRequest>) => ('code' in r ? r.code : 'ok');
  assert.equal(code(checkModernHttpRequest(headers({ 'mcp-method': 'tools/list' }), body('tools/list'))), 'ok');
  assert.equal(code(checkModernHttpRequest({ 'mcp-method': 'tools/list' }, body('tools/list'))), -32020);
  assert.equal(code(checkModernHttpRequest(headers({ 'mcp-method': 'tools/list' }), { method: 'tools/list' })), -32602);
  // The header names v999 too: header and envelope agree, the revision is the fault.
  const v999 = {
    method: 'tools/list',
    params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': 'v999' } },
  };
  assert.equal(
    code(checkModernHttpRequest({ 'mcp-protocol-version': 'v999', 'mcp-method': 'tools/list' }, v999)),
    -32022,
  );
  assert.equal(code(checkModernHttpRequest(headers({ 'mcp-method': 'tools/list' }), v999)), -32020);
  assert.equal(code(checkModernHttpRequest(headers({ 'mcp-method': 'TOOLS/LIST' }), body('tools/list'))), -32020);
  const call = body('tools/call', { name: 'läuft' });
  assert.equal(code(checkModernHttpRequest(headers({ 'mcp-method': 'tools/call' }), call)), -32020);
  assert.equal(
    code(checkModernHttpRequest(headers({ 'mcp-method': 'tools/call', 'mcp-name': 'other' }), call)),
    -32020,
  );
  const encoded = encodeHeaderValue('läuft');
  assert.match(encoded, /^=\?base64\?.+\?=$/);
  assert.equal(code(checkModernHttpRequest(headers({ 'mcp-method': 'tools/call', 'mcp-name': encoded }), call)), 'ok');
  const read = body('resources/read', { uri: 'file:///a b' });
  const uri = encodeHeaderValue('file:///a b');
  assert.equal(uri, 'file:///a b');
  assert.equal(
    code(checkModernHttpRequest(headers({ 'mcp-method': 'resources/read', 'mcp-name': ` ${uri} ` }), read)),
    'ok',
  );
});

test('header values: plain ASCII as it is, anything else (and the sentinel itself) base64 inside =?base64?…?=', () => {
  for (const value of ['get_weather', 'Hello, 世界', ' padded ', 'line1\nline2', '=?base64?literal?=']) {
    assert.equal(decodeHeaderValue(encodeHeaderValue(value)), value, value);
  }
  assert.equal(encodeHeaderValue('us-west1'), 'us-west1');
  assert.equal(encodeHeaderValue(' padded '), '=?base64?IHBhZGRlZCA=?=');
  assert.equal(decodeHeaderValue('=?base64?not base64!?='), '=?base64?not base64!?=');
  assert.equal(decodeHeaderValue('=?base64?SGk=x?='), '=?base64?SGk=x?=');
});
