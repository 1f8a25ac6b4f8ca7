/**
 * Consent for a 2026-07-28 client (app/toolConsent.ts through gateway/modern/): the question goes
 * out as an input-required round when the request's `_meta` envelope declares elicitation, and
 * the answer decides whether the tool runs; without elicitation the call is refused as a 2025
 * client's is. The official TypeScript SDK v2 client pinned to 2026-07-28, over streamable HTTP;
 * the upstream is a real stdio server with annotated tools (test/fixtures/servers/annotated.mjs).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ANNOTATED, startHttpLens, type HttpLensWorld } from '../fixtures/gatewayLens';

const TOKEN = 'consent-modern-' + Math.random().toString(36).slice(2);

function text(r: unknown): string {
  const content = (r as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((c) => (c.type === 'text' ? (c.text ?? '') : '')).join('\n');
}

describe('consent for a 2026-07-28 client', () => {
  let world: HttpLensWorld;
  const clients: Client[] = [];

  async function modernClient(capabilities: Record<string, unknown>): Promise<Client> {
    const client = new Client(
      { name: 'consent-modern-test', version: '1.0.0' },
      { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(world.url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  const callTool = (client: Client, tool: string, args: Record<string, unknown>) =>
    client.callTool({ name: 'call_tool', arguments: { tool_name: tool, arguments: args } });

  before(async () => {
    world = await startHttpLens({ annotated: ANNOTATED }, TOKEN, { consent: 'destructive' });
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await world?.close();
  });

  it('asks through an input-required round; "deny" keeps the tool from running, "once" runs it', async () => {
    const client = await modernClient({ elicitation: {} });
    const questions: string[] = [];
    let decision = 'deny';
    client.setRequestHandler('elicitation/create', async (request) => {
      questions.push(String((request.params as { message?: unknown }).message));
      return { action: 'accept', content: { decision } };
    });
    const denied = await callTool(client, 'annotated_drop_table', { table: 'users' });
    assert.equal(denied.isError, true, text(denied));
    assert.doesNotMatch(text(denied), /dropped users/);
    assert.equal(questions.length, 1);
    assert.match(questions[0]!, /drop_table/);
    assert.match(questions[0]!, /server "annotated"/);
    decision = 'once';
    const allowed = await callTool(client, 'annotated_drop_table', { table: 'users' });
    assert.match(text(allowed), /dropped users/);
    assert.equal(questions.length, 2);
  });

  it('a 2026 client whose envelope declares no elicitation gets the refusal naming the tool', async () => {
    const client = await modernClient({});
    const r = await callTool(client, 'annotated_drop_table', { table: 'legacy' });
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), /"drop_table" on server "annotated" did not run/);
    assert.match(text(r), /mcpLens\.consent/);
    assert.doesNotMatch(text(r), /legacy/, 'the error carries no arguments');
  });
});
