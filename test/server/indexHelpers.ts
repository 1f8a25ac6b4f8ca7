// Shared world-building for the index tests: a temp store folder, a small catalog, a wait on status.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IndexStatus } from '../../protocol/model';
import type { StoredTool } from '../../server/src/adapters/store/toolStore';
import type { CatalogTool } from '../../server/src/core/catalog';
import { lineLogger, type Logger } from '../../server/src/core/logger';
import type { ToolIndex } from '../../server/src/core/search/types';
import { hashedVector } from '../fixtures/fakeOllama';
import { untilChanged } from '../fixtures/untilChanged';

type TestContext = { after(fn: () => void | Promise<void>): void };
const closers = new WeakMap<TestContext, (() => Promise<void>)[]>();

function closersOf(t: TestContext): (() => Promise<void>)[] {
  let list = closers.get(t);
  if (!list) closers.set(t, (list = []));
  return list;
}

/** A temp folder removed after the test, once everything given to `closeAtEnd` has closed. */
export function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-index-'));
  const list = closersOf(t);
  t.after(async () => {
    for (const close of list.splice(0).reverse()) await close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Closes `thing` at the end of the test, before its temp folders are removed. */
export function closeAtEnd<T extends { close(): Promise<void> }>(t: TestContext, thing: T): T {
  closersOf(t).push(() => thing.close());
  return thing;
}

export function tool(server: string, name: string, description: string, params: string[] = []): CatalogTool {
  return {
    key: `${server}/${name}`,
    name: `${server}_${name}`,
    server,
    originalName: name,
    description,
    inputSchema: { type: 'object', properties: Object.fromEntries(params.map((p) => [p, { type: 'string' }])) },
  };
}

export function catalog(): CatalogTool[] {
  return [
    tool('files', 'read_file', 'Read the complete contents of a file from disk', ['path']),
    tool('files', 'write_file', 'Create a new file or overwrite an existing file with new content', [
      'path',
      'content',
    ]),
    tool('files', 'list_directory', 'List the entries of a directory', ['path']),
    tool('github', 'create_issue', 'Open a new issue in a GitHub repository', ['owner', 'repo', 'title']),
    tool('github', 'search_code', 'Search source code across GitHub repositories', ['query']),
    tool('mail', 'send_email', 'Send an email message to recipients', ['to', 'subject', 'body']),
    tool('weather', 'get_forecast', 'Weather forecast for a city for the next days', ['city']),
    tool('calendar', 'create_event', 'Schedule a calendar event with attendees', ['title', 'start']),
  ];
}

/** A logger that keeps its lines, for asserting what was logged. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(
    lineLogger((level, line) => lines.push(`${level}: ${line}`), 'debug'),
    { lines },
  );
}

/** Resolves once `check` holds for the index status, re-checking on every change event. */
export function waitForStatus(
  index: ToolIndex,
  check: (s: IndexStatus) => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<IndexStatus> {
  return untilChanged(
    index,
    () => {
      const s = index.status();
      return check(s) ? s : undefined;
    },
    () => `index never reached "${what}"; last status: ${JSON.stringify(index.status())}`,
    timeoutMs,
  );
}

const VERBS = ['read', 'write', 'list', 'delete', 'create', 'update', 'search', 'export', 'import', 'archive'];
const THINGS = ['file', 'issue', 'invoice', 'ticket', 'message', 'report', 'cluster', 'bucket', 'user', 'order'];

/** `n` tools over `n / 20` servers, each described in words of its own (verb, thing, server): a catalog past LanceDB's index size in the vector-index tests. */
export function manyTools(n: number): CatalogTool[] {
  return Array.from({ length: n }, (_, i) => {
    const server = `team${Math.floor(i / 20)}`;
    const verb = VERBS[i % VERBS.length]!;
    const thing = THINGS[Math.floor(i / VERBS.length) % THINGS.length]!;
    return tool(server, `${verb}_${thing}_${i}`, `${verb} a ${thing} of the ${server} service, item ${i}`);
  });
}

/** `manyTools(n)` as store rows of `model`, embedded as the Ollama-protocol test server embeds them. */
export function manyStoredRows(n: number, model: string, dim: number): StoredTool[] {
  return manyTools(n).map((t) => ({
    id: t.key,
    server: t.server,
    tool: t.originalName,
    text: t.description,
    inputSchemaJson: '{}',
    contentHash: 'h',
    model,
    vector: Float32Array.from(hashedVector(t.description, dim)),
  }));
}
