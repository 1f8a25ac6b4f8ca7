/**
 * A prompt says which server asks: an elicitation (form or URL) or a sampling request that an
 * upstream sends through MCP Lens reaches the client naming that upstream, where MCP Lens alone
 * would be named ("MCP Server (MCP Lens)"). Real parts: server-everything from npm behind MCP
 * Lens's HTTP gateway, and a real SDK client that answers what it is asked.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type CreateMessageRequest,
  type ElicitRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { ASKING_SERVER_META } from '../../server/src/core/askingServer';
import { EVERYTHING, startHttpLens, type HttpLensWorld } from '../fixtures/gatewayLens';

const TOKEN = 'asking-server-' + Math.random().toString(36).slice(2);

describe('a forwarded prompt names the server that asks', () => {
  let world: HttpLensWorld;
  let client: Client;
  const elicited: ElicitRequest['params'][] = [];
  const sampled: CreateMessageRequest['params'][] = [];

  before(async () => {
    world = await startHttpLens({ everything: EVERYTHING }, TOKEN);
    client = new Client(
      { name: 'asking-server-test', version: '1.0.0' },
      { capabilities: { elicitation: { form: {}, url: {} }, sampling: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicited.push(request.params);
      return request.params.mode === 'url'
        ? { action: 'decline' }
        : { action: 'accept', content: { name: 'Ada', check: true, email: 'ada@example.com' } };
    });
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      sampled.push(request.params);
      return { role: 'assistant', content: { type: 'text', text: 'fine' }, model: 'test-model' };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(world.url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await world?.close();
  });

  const call = (tool: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name: 'call_tool', arguments: { tool_name: `everything_${tool}`, arguments: args } });

  it('a form elicitation: the message starts with the server, the form is as the server asked', async () => {
    elicited.length = 0;
    const r = await call('trigger-elicitation-request');
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    assert.equal(elicited.length, 1);
    const asked = elicited[0]!;
    assert.equal(asked.message, '[everything] Please provide inputs for the following fields:');
    assert.equal((asked._meta as Record<string, unknown>)[ASKING_SERVER_META], 'everything');
    const schema = (asked as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema;
    assert.ok('name' in schema.properties && 'email' in schema.properties, 'the form is untouched');
  });

  it('a URL elicitation: the message names the server, the URL is untouched', async () => {
    elicited.length = 0;
    await call('trigger-url-elicitation', { url: 'https://example.com/authorize?x=1', message: 'Sign in to go on.' });
    assert.equal(elicited.length, 1);
    const asked = elicited[0] as ElicitRequest['params'] & { url: string; mode: string };
    assert.equal(asked.mode, 'url');
    assert.equal(asked.message, '[everything] Sign in to go on.');
    assert.equal(asked.url, 'https://example.com/authorize?x=1');
    assert.equal((asked._meta as Record<string, unknown>)[ASKING_SERVER_META], 'everything');
  });

  it('a sampling request: named in _meta, and the model is asked exactly what the server asked', async () => {
    sampled.length = 0;
    const r = await call('trigger-sampling-request', { prompt: 'say hi', maxTokens: 20 });
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    assert.equal(sampled.length, 1);
    const asked = sampled[0]!;
    assert.equal((asked._meta as Record<string, unknown>)[ASKING_SERVER_META], 'everything');
    assert.equal(asked.systemPrompt, 'You are a helpful test server.');
    assert.deepEqual(asked.messages, [
      { role: 'user', content: { type: 'text', text: 'Resource trigger-sampling-request context: say hi' } },
    ]);
  });
});
