/**
 * Token figures of the gateway on a real catalog: the 19 servers of
 * test/fixtures/catalog/real-workspace-tools.json, each served by the replay fixture over
 * stdio, behind a LensApp and the Gateway, driven by an MCP SDK client. Measures our tools/list
 * in search mode, savings against the catalog's tools/list, and the tokens of find_tools
 * responses at the default limit over realistic queries.
 *
 *   node --import tsx bench/src/gatewayCatalog.ts [--fixture FILE] [--json] [--write bench-results.md]
 *
 * `npm run bench` runs it with --write: its section of bench-results.md is the find_tools figure.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sanitizeSettings } from '../../protocol/settings';
import { countTokens, toolListTokens, useTokenCounter } from '../../server/src/core/tokens';
import { o200kTokenizer } from '../../server/src/adapters/tokens/o200kCounter';
import { openBenchGateway } from './benchGateway';
import { recordedCatalogFile } from './benchFiles';
import { writeSection } from './markdownSection';

/** Tasks an agent in such a workspace plausibly has, one per server family and some across. */
export const REALISTIC_QUERIES = [
  'take a screenshot of the current web page',
  'click a button on the page',
  'read the contents of a file',
  'search for files matching a pattern',
  'create a GitHub issue',
  'open a pull request',
  'list recent commits of a repository',
  'send a message to a Slack channel',
  'find documentation for a library',
  'query documents in a MongoDB collection',
  'scrape a website and return markdown',
  'list Kubernetes pods in a namespace',
  'get the error details of a Sentry issue',
  'create a page in Notion',
  'search HubSpot contacts by email',
  'store a fact in the knowledge graph memory',
  'run a shell command',
  'list Azure storage accounts',
  'get a Figma design file',
  'think step by step about a hard problem',
];

export interface CatalogReport {
  servers: number;
  tools: number;
  catalogTokensFixture: number;
  baselineTokens: number;
  exposedTokensSearchMode: number;
  savingsPercent: number;
  findTools: {
    queries: number;
    limit: number;
    meanTokens: number;
    medianTokens: number;
    maxTokens: number;
    meanSavingsPercent: number;
    /** Answers whose first hit came with its full input schema (the ranking was confident: core/rankConfidence.ts). */
    confidentAnswers: number;
  };
}

export async function measureGatewayCatalog(root: string, fixture: string): Promise<CatalogReport> {
  const recording = JSON.parse(readFileSync(fixture, 'utf8')) as {
    servers: Record<string, { tools: Parameters<typeof toolListTokens>[0] }>;
  };
  const names = Object.keys(recording.servers);
  const catalogTokensFixture = names.reduce((n, s) => n + toolListTokens(recording.servers[s]!.tools), 0);
  const ws = mkdtempSync(join(tmpdir(), 'mcp-lens-catalog-'));
  const config = join(ws, 'mcp.json');
  const replay = join(root, 'test/fixtures/servers/replay.mjs');
  writeFileSync(
    config,
    JSON.stringify({
      servers: Object.fromEntries(
        names.map((s) => [s, { command: process.execPath, args: [replay, s, '--file', fixture] }]),
      ),
    }),
  );
  const settings = sanitizeSettings({ embedding: { enabled: false } });
  const { lens, gateway, client, close } = await openBenchGateway(ws, config);
  try {
    const listed = await client.listTools();
    const exposed = toolListTokens(listed.tools);
    const stats = gateway.stats();
    const tokens: number[] = [];
    const savings: number[] = [];
    let confident = 0;
    for (const query of REALISTIC_QUERIES) {
      const r = (await client.callTool({ name: 'find_tools', arguments: { query } })) as CallToolResult;
      const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      tokens.push(countTokens(text));
      const out = r.structuredContent as {
        token_metrics: { savings_percent: number };
        matches: { input_schema?: unknown; input_schema_omitted?: string }[];
      };
      savings.push(out.token_metrics.savings_percent);
      if (out.matches[0]?.input_schema !== undefined || out.matches[0]?.input_schema_omitted !== undefined) confident++;
    }
    const sorted = [...tokens].sort((a, b) => a - b);
    const mean = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10;
    return {
      servers: lens.servers().filter((s) => s.state === 'ready').length,
      tools: lens.tools().length,
      catalogTokensFixture,
      baselineTokens: stats.tokens.baselineTokens,
      exposedTokensSearchMode: exposed,
      savingsPercent: stats.tokens.savingsPercent,
      findTools: {
        queries: REALISTIC_QUERIES.length,
        limit: settings.search.defaultLimit,
        meanTokens: mean(tokens),
        medianTokens: sorted[Math.floor(sorted.length / 2)] ?? 0,
        maxTokens: sorted[sorted.length - 1] ?? 0,
        meanSavingsPercent: mean(savings),
        confidentAnswers: confident,
      },
    };
  } finally {
    await close();
    rmSync(ws, { recursive: true, force: true });
  }
}

/** bench-results.md's section: what an agent pays per find_tools answer on the recorded catalog. */
export function formatCatalogMarkdown(r: CatalogReport): string {
  const f = r.findTools;
  return [
    '## find_tools answers on a real catalog',
    '',
    `The ${r.servers} servers of test/fixtures/catalog/real-workspace-tools.json (${r.tools} tools, tools/list ${r.baselineTokens.toLocaleString('en-US')} o200k tokens), ` +
      `each replayed over stdio behind the gateway, keyword mode. ${f.queries} realistic agent requests (REALISTIC_QUERIES in bench/src/gatewayCatalog.ts: ` +
      'one or two per server family, e.g. "take a screenshot of the current web page", "list Kubernetes pods in a namespace"), find_tools at the default limit.',
    '',
    '| find_tools answer, o200k tokens | mean | median | max | first hit with its schema (confident) | tools/list in search mode |',
    '|---|---:|---:|---:|---:|---:|',
    `| limit ${f.limit} | **${f.meanTokens}** | ${f.medianTokens} | ${f.maxTokens} | ${f.confidentAnswers} of ${f.queries} | ${r.exposedTokensSearchMode} |`,
    '',
    '_`node --import tsx bench/src/gatewayCatalog.ts` (part of `npm run bench`)._',
  ].join('\n');
}

if (require.main === module) {
  useTokenCounter(o200kTokenizer);
  const argv = process.argv.slice(2);
  const i = argv.indexOf('--fixture');
  const w = argv.indexOf('--write');
  const fixture = i >= 0 ? resolve(argv[i + 1] ?? '') : recordedCatalogFile();
  measureGatewayCatalog(resolve(__dirname, '../..'), fixture).then(
    (r) => {
      const md = formatCatalogMarkdown(r);
      process.stdout.write(argv.includes('--json') ? `${JSON.stringify(r, null, 2)}\n` : `${md}\n`);
      if (w >= 0) writeSection(resolve(argv[w + 1] ?? 'bench-results.md'), 'find-tools', md);
    },
    (err: unknown) => {
      process.stderr.write(`gateway catalog bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
