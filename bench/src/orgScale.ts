/**
 * The organisation-scale bench: org catalogs (orgCatalog.ts) of 10,000, 50,000 and 100,000
 * tools made from the real ones, and at each size the keyword index's build time and search
 * latency in this process (scaleKeyword.ts), then the gateway as a real process over stdio
 * (scaleGateway.ts): time to its first answer over the whole catalog, find_tools p50/p99 and
 * RSS. Goals (issue 25): at 100,000 tools find_tools p99 ≤ 5× its p99 at 10,000 in the same
 * run and under 50 ms, RSS ≤ 500 MB in keyword mode.
 *
 *   node esbuild.mjs server && node --import tsx bench/src/orgScale.ts [--sizes 10000,50000,100000] [--no-gateway] [--json] [--write bench-results.md]
 *
 * `npm run bench:scale` runs it with --write (its own section of bench-results.md).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from './benchFiles';
import { writeSection } from './markdownSection';
import { orgCatalog, realTools } from './orgCatalog';
import { gatewayAtScale, type GatewayScaleFigures } from './scaleGateway';
import { keywordAtScale, type KeywordScaleFigures } from './scaleKeyword';
import { scaleQueries } from './scaleQueries';

const DEFAULT_SIZES = [10_000, 50_000, 100_000];
/** The goals at the largest size, against the smallest (issue 25). */
const P99_RATIO_GOAL = 5;
const P99_MS_GOAL = 50;
const RSS_MB_GOAL = 500;

interface SizeReport {
  keyword: KeywordScaleFigures;
  gateway?: GatewayScaleFigures;
}

async function main(): Promise<void> {
  const args = parseArgs({
    options: {
      sizes: { type: 'string' },
      'no-gateway': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      write: { type: 'string' },
    },
    strict: true,
  }).values;
  const sizes = args.sizes ? args.sizes.split(',').map(Number) : DEFAULT_SIZES;
  if (sizes.some((n) => !(Number.isInteger(n) && n > 0)))
    throw new Error(`--sizes wants positive integers, got "${args.sizes}"`);
  const cli = join(repoRoot(), 'dist', 'cli.js');
  if (!args['no-gateway'] && !existsSync(cli))
    throw new Error(`${cli} is missing: run \`node esbuild.mjs server\` first`);
  const base = realTools();
  const queries = scaleQueries();
  const reports: SizeReport[] = [];
  for (const size of sizes) {
    const catalog = orgCatalog(base, size);
    process.stderr.write(`scale: ${size} tools, ${queries.length} queries: keyword index…\n`);
    const keyword = await keywordAtScale(catalog, queries);
    let gateway: GatewayScaleFigures | undefined;
    if (!args['no-gateway']) {
      process.stderr.write(`scale: ${size} tools: gateway over stdio…\n`);
      gateway = await gatewayAtScale(catalog, queries, cli);
    }
    reports.push({ keyword, ...(gateway ? { gateway } : {}) });
  }
  const command = `node --import tsx bench/src/orgScale.ts ${process.argv.slice(2).join(' ')}`.trim();
  const markdown = formatMarkdown(reports, queries.length, command);
  if (args.json) process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
  else process.stdout.write(`${markdown}\n`);
  if (args.write) writeSection(resolve(args.write), 'scale', markdown);
}

function formatMarkdown(reports: readonly SizeReport[], queries: number, command: string): string {
  const lines = [
    '## Organisation-sized catalogs (`npm run bench:scale`)',
    '',
    `\`${command}\` — org catalogs generated from the real ones (distinct server, tool names and descriptions; the datasets' gold tools included), ${queries} dataset queries, keyword mode, limit 10.`,
    '',
    '| tools | servers | index build ms | search p50 ms | search p99 ms | R@10 | MRR@10 | gateway ready ms | first find_tools ms | gateway CPU s | find_tools p50 ms | find_tools p99 ms | RSS MB | peak RSS MB |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { keyword: k, gateway: g } of reports) {
    const gw = g
      ? [
          g.ready_ms,
          g.first_find_tools_ms,
          (g.cpu_ms / 1000).toFixed(1),
          g.find_tools_ms.p50,
          g.find_tools_ms.p99,
          g.rss_mb,
          g.peak_rss_mb,
        ]
      : ['–', '–', '–', '–', '–', '–', '–'];
    lines.push(
      `| ${[k.tools, k.servers, k.build_ms, k.search_ms.p50, k.search_ms.p99, k.recall_at_10, k.mrr_at_10, ...gw].join(' | ')} |`,
    );
  }
  const first = reports[0];
  const last = reports[reports.length - 1];
  if (first && last && last !== first) {
    const p99 = (r: SizeReport) => r.gateway?.find_tools_ms.p99 ?? r.keyword.search_ms.p99;
    const where = last.gateway ? 'find_tools over stdio' : 'search in process';
    const ratio = p99(last) / Math.max(p99(first), 1e-9);
    lines.push('');
    lines.push(
      `Goals at ${last.keyword.tools} tools against ${first.keyword.tools} (${where}): p99 ${p99(last).toFixed(1)} ms = ${ratio.toFixed(2)}× (goal ≤ ${P99_RATIO_GOAL}×, < ${P99_MS_GOAL} ms)` +
        (last.gateway ? `; gateway peak RSS ${last.gateway.peak_rss_mb} MB (goal ≤ ${RSS_MB_GOAL} MB).` : '.'),
    );
  }
  return lines.join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:scale: ${(err as Error).message}\n`);
  process.exit(1);
});
