/**
 * `mcp-lens stats`: token savings and usage. Live from a running `serve --http` of the
 * workspace when there is one (found through .mcp-lens/gateway.json, authenticated with the
 * token), otherwise the static figures (baseline vs exposed tools/list) from a fresh start.
 */
import { resolve } from 'node:path';
import { plural, tokenChange, totalFigure, totalMeaning } from '../../../protocol/figureText';
import type { LensStats, RetrievalStats } from '../../../protocol/model';
import {
  RETRIEVAL_EXPLAINED,
  UNSEARCHED_EXPLAINED,
  retrievalAdviceFor,
  retrievalRates,
  trendText,
  windowText,
} from '../../../protocol/retrievalText';
import { Gateway } from '../gateway/gateway';
import { isLoopbackHttpUrl, readGatewayInfo, readTokenFile } from '../gateway/gatewayFiles';
import { gatewayProof, proofNonce, tokensEqual } from '../gateway/httpGuards';
import { isOwnLensProcess } from '../adapters/processProbe';
import { escapeForDisplay, oneLine } from '../../../protocol/untrustedText';
import type { CliCommand } from './command';
import { commandUsage, parseCommand, type CliOptions, type CommandSpec } from './commandLine';
import { EXIT } from './exitCodes';
import { WORKSPACE_OPTIONS, openLens, reportVerdict, verdictOf } from './lensFromArgs';
import { configuredServers } from './workspaceVerdict';
import { stderrLogger } from './stderrLogger';
import { errorMessage } from '../core/errorMessage';

const SPEC = {
  name: 'stats',
  summary: 'token savings and usage (live from a running gateway, or computed)',
  description:
    'Token savings: the tokens of the tools/list every upstream server would send (baseline) against what MCP Lens sends in its exposure mode, and the find_tools calls of a running gateway. Reads a running `mcp-lens serve --http` of the workspace when there is one.',
  options: {
    ...WORKSPACE_OPTIONS,
    json: { help: 'one JSON document: { source: "live" | "static", ...LensStats }' },
  },
  notes:
    'Search quality (usage.retrieval in --json): agent calls of the last 10 gateway sessions, each judged against its session\'s most recent find_tools answer. "picks" are the first calls after an answer; hit rate at 1 = top1 / picks, at 5 = top5 / picks; "unsearched" calls had no find_tools before them. "earlier" holds the 10 sessions before, "trend" compares the two.',
} as const satisfies CommandSpec<CliOptions>;

export const stats: CliCommand = {
  usage: commandUsage(SPEC, true),
  summary: SPEC.summary,
  async run(argv) {
    const parsed = parseCommand(SPEC, argv);
    if ('exit' in parsed) return parsed.exit;
    const { values } = parsed;
    const log = stderrLogger();
    const workspace = resolve(values.workspace ?? process.cwd());
    const live = await liveStats(workspace, (m) => log.warn(m));
    if (live) {
      process.stdout.write(values.json ? json('live', live) : renderStats(live, 'live'));
      return EXIT.ok;
    }
    const lens = await openLens({
      workspace,
      config: values.config,
      trust: values.trust,
      log,
      interactive: true,
      lightweight: true,
    });
    try {
      const gateway = new Gateway({ lens, log });
      const result = gateway.stats();
      await gateway.close();
      const verdict = verdictOf(lens, values.config);
      // With no server configured there is nothing to compare: the figures would only mislead.
      if (values.json) process.stdout.write(json('static', result));
      else if (configuredServers(lens.servers()).length > 0) process.stdout.write(renderStats(result, 'static'));
      return reportVerdict('stats', verdict);
    } finally {
      await lens.close();
    }
  },
};

function json(source: 'live' | 'static', stats: LensStats): string {
  return JSON.stringify({ source, ...stats }, null, 2) + '\n';
}

/**
 * Stats from the workspace's running gateway; undefined when none is running or reachable.
 * `.mcp-lens/gateway.json` can be shipped by a repository, so before the token goes anywhere
 * the file must be one MCP Lens wrote (adapters/privateFiles), its pid a live MCP Lens process
 * of this user, its URL loopback, and the server there must prove it knows the token (an HMAC
 * of a fresh nonce, httpGuards.gatewayProof). Anything else: static figures, and a warning
 * when the file looks planted rather than stale.
 */
export async function liveStats(workspace: string, warn: (m: string) => void): Promise<LensStats | undefined> {
  const read = readGatewayInfo(workspace);
  if ('missing' in read) return undefined;
  if ('refused' in read) {
    warn(`ignoring .mcp-lens/gateway.json: ${read.refused}; computing static figures`);
    return undefined;
  }
  const { info } = read;
  const shownUrl = escapeForDisplay(info.url);
  if (!isLoopbackHttpUrl(info.url)) {
    warn(
      `ignoring .mcp-lens/gateway.json: its URL ${shownUrl} is not http on 127.0.0.1 or localhost, where a gateway listens; computing static figures`,
    );
    return undefined;
  }
  // A stale file (the gateway ended) is normal; a pid that is not ours is not worth a word either.
  if (!isOwnLensProcess(info.pid)) return undefined;
  const token = process.env.MCP_LENS_TOKEN?.trim() || readTokenFile(workspace);
  if (!token) {
    warn(
      `a gateway is running at ${shownUrl} but no token was found (.mcp-lens/token or MCP_LENS_TOKEN); computing static figures`,
    );
    return undefined;
  }
  try {
    if (!(await provesToken(info.url, token))) {
      warn(
        `the server at ${shownUrl} named by .mcp-lens/gateway.json does not prove it knows the token; not sending it there, computing static figures`,
      );
      return undefined;
    }
    const res = await fetch(new URL('/stats', info.url), {
      headers: { authorization: `Bearer ${token}` },
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) {
      warn(`gateway at ${shownUrl} answered ${res.status} to /stats; computing static figures`);
      return undefined;
    }
    return (await res.json()) as LensStats;
  } catch (err) {
    warn(`gateway at ${shownUrl} unreachable (${oneLine(errorMessage(err))}); computing static figures`);
    return undefined;
  }
}

/** Asks the server for the HMAC of a fresh nonce under the token; true only for the right answer. */
async function provesToken(url: string, token: string): Promise<boolean> {
  const nonce = proofNonce();
  const res = await fetch(new URL(`/proof?nonce=${nonce}`, url), {
    redirect: 'error',
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) return false;
  const body = (await res.json().catch(() => undefined)) as { proof?: unknown } | undefined;
  return typeof body?.proof === 'string' && tokensEqual(body.proof, gatewayProof(token, nonce));
}

function n(v: number): string {
  return v.toLocaleString('en-US');
}

export function renderStats(s: LensStats, source: 'live' | 'static'): string {
  const t = s.tokens;
  const lines = [
    source === 'live'
      ? `MCP Lens stats (live from ${oneLine(s.gateway?.url ?? 'the running gateway')})`
      : 'MCP Lens stats (computed now; no gateway running)',
    `${plural(s.servers, 'server')}, ${plural(s.tools, 'tool')}, exposure: ${oneLine(String(s.exposure))}`,
    `tools/list tokens: ${n(t.baselineTokens)} for all upstream servers -> ${n(t.exposedTokens)} through MCP Lens (${changeText(t)})`,
  ];
  if (source === 'live') {
    lines.push(
      `find_tools calls: ${n(t.findToolsCalls)}, their answers ${plural(t.returnedTokensTotal, 'token')}; ${totalFigure(t).value} ${totalFigure(t).label}`,
      `  ${totalMeaning(t)}`,
    );
  }
  if (t.perServer.length) {
    lines.push('', 'Per server (tools/list tokens):');
    // Server names come from the workspace's config: shown escaped, never as terminal codes.
    const width = Math.min(40, Math.max(...t.perServer.map((p) => escapeForDisplay(p.server).length)));
    for (const p of [...t.perServer].sort((a, b) => b.tokens - a.tokens)) {
      lines.push(
        `  ${escapeForDisplay(p.server).padEnd(width)}  ${plural(p.tools, 'tool').padStart(10)}  ${n(p.tokens).padStart(8)} tokens`,
      );
    }
  }
  if (s.usage?.enabled) {
    lines.push('', `Usage: ${plural(s.usage.callsRecorded, 'call')} recorded`);
    const pct = (x: number | undefined) => (x === undefined ? 'n/a' : `${(x * 100).toFixed(1)}%`);
    lines.push(`  called tools predicted before the call: ${pct(s.usage.predictedHitRate)}`);
    for (const top of s.usage.topTools.slice(0, 5))
      lines.push(`  ${escapeForDisplay(top.name)}  ${plural(top.calls, 'call')}`);
    lines.push('', ...retrievalLines(s.usage.retrieval));
  } else if (s.usage) {
    lines.push('', 'Usage: not recorded (mcpLens.usage.enabled is off), so search quality is not measured.');
  }
  return lines.join('\n') + '\n';
}

/** "77.4% saved", or for a mode that lists more than the servers would, "21.1% more: a cost". */
function changeText(t: LensStats['tokens']): string {
  // No server listed any tool (none ready): a percentage of nothing means nothing.
  if (t.baselineTokens === 0) return 'no upstream tools listed, so nothing to compare with';
  const c = tokenChange(t);
  if (c.kind === 'saving') return `${c.percent} saved`;
  if (c.kind === 'cost') return `${c.percent} more than the servers' own lists: a cost, not a saving`;
  return "the same as the servers' own lists";
}

/** The search-quality block: hit rates at 1 and 5 and the share without find_tools, with what they mean. */
export function retrievalLines(r: RetrievalStats | undefined): string[] {
  if (!r) return ['Search quality: no agent calls through the gateway yet.', `  ${RETRIEVAL_EXPLAINED}`];
  const w = r.recent;
  const now = retrievalRates(w);
  const lines = [`Search quality over ${windowText(w, 'last')} (${plural(w.calls, 'agent call')}):`];
  if (w.picks > 0) {
    lines.push(`  picked tool ranked 1st by find_tools:  ${now.top1.padStart(4)}  (${now.top1Of})`);
    lines.push(`  picked tool in find_tools' top 5:      ${now.top5.padStart(4)}  (${now.top5Of})`);
  } else {
    lines.push('  no tool picked from a find_tools answer yet');
  }
  lines.push(`  called without a find_tools first:     ${now.unsearched.padStart(4)}  (${now.unsearchedOf})`);
  const trend = trendText(r);
  if (trend) lines.push(`  ${trend}`);
  const advice = retrievalAdviceFor(r);
  lines.push(`  ${RETRIEVAL_EXPLAINED}`, ...(advice ? [`  ${advice}`] : []), `  ${UNSEARCHED_EXPLAINED}`);
  return lines;
}
