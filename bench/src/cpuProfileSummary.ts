/**
 * Where a process's CPU time went, from a V8 CPU profile (`node --cpu-prof`): self time per
 * function and per source file, the largest first, and total time under the functions whose
 * name matches --focus (e.g. the call path). For before/after comparisons of the gateway's
 * per-call cost (gatewayOverhead.ts --cpu-prof DIR).
 *
 *   node --import tsx bench/src/cpuProfileSummary.ts FILE.cpuprofile [--top N] [--focus REGEX] [--after REGEX] [--json]
 *
 * --after REGEX counts only the samples from the first one taken inside a function whose name
 * matches (e.g. `callToolMetaTool`: the calls, without the start-up before them).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /** Time in (idle) and (program) and (garbage collector), which are not code. */
  idleMs: number;
  gcMs: number;
  byFunction: { name: string; selfMs: number }[];
  byFile: { file: string; selfMs: number }[];
  /** Total (self + callees) time under functions matching the focus pattern, outermost only. */
  focus?: { pattern: string; totalMs: number };
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const dist = url.lastIndexOf('/dist/');
  if (dist >= 0) return url.slice(dist + 1);
  return url.replace(/^file:\/\//, '') || '(native)';
}

/**
 * `untilUs`: only the samples taken before this time, on the profile's clock (V8's monotonic
 * microseconds, process.hrtime's clock: the start-up profile cuts at the first answer).
 */
export function summarizeProfile(
  profile: CpuProfile,
  top = 25,
  focus?: RegExp,
  after?: RegExp,
  untilUs?: number,
): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const first = after ? firstSampleUnder(profile, byId, after) : 0;
  const selfUs = new Map<number, number>();
  let spanUs = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    if (i < first || (untilUs !== undefined && at > untilUs)) return;
    spanUs += us;
    selfUs.set(id, (selfUs.get(id) ?? 0) + us);
  });
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  let idle = 0;
  let gc = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') idle += us;
    if (functionName === '(garbage collector)') gc += us;
    const name = `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}`;
    fn.set(name, (fn.get(name) ?? 0) + us);
    file.set(shortUrl(url), (file.get(shortUrl(url)) ?? 0) + us);
  }
  const ms = (us: number) => Math.round(us / 10) / 100;
  const sorted = <K extends string>(m: Map<string, number>, key: K) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => ({ [key]: k, selfMs: ms(us) }) as Record<K, string> & { selfMs: number });
  const summary: ProfileSummary = {
    totalMs: ms(after || untilUs !== undefined ? spanUs : profile.endTime - profile.startTime),
    idleMs: ms(idle),
    gcMs: ms(gc),
    byFunction: sorted(fn, 'name'),
    byFile: sorted(file, 'file'),
  };
  if (focus) summary.focus = { pattern: focus.source, totalMs: ms(focusTime(profile, byId, selfUs, focus)) };
  return summary;
}

/** The index of the first sample taken with a function matching `pattern` on its stack; past the end when none. */
function firstSampleUnder(profile: CpuProfile, byId: Map<number, ProfileNode>, pattern: RegExp): number {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const matches = new Map<number, boolean>();
  const under = (id: number): boolean => {
    const known = matches.get(id);
    if (known !== undefined) return known;
    const up = parent.get(id);
    const m = pattern.test(byId.get(id)!.callFrame.functionName) || (up !== undefined && under(up));
    matches.set(id, m);
    return m;
  };
  const i = profile.samples.findIndex((id) => under(id));
  return i < 0 ? profile.samples.length : i;
}

/** Self time of every node under an outermost node whose function name matches. */
function focusTime(
  profile: CpuProfile,
  byId: Map<number, ProfileNode>,
  selfUs: Map<number, number>,
  focus: RegExp,
): number {
  const root = profile.nodes[0];
  if (!root) return 0;
  let total = 0;
  const stack: [number, boolean][] = [[root.id, false]];
  while (stack.length) {
    const [id, inside] = stack.pop()!;
    const node = byId.get(id)!;
    const here = inside || focus.test(node.callFrame.functionName);
    if (here) total += selfUs.get(id) ?? 0;
    for (const c of node.children ?? []) stack.push([c, here]);
  }
  return total;
}

export function formatSummary(s: ProfileSummary): string {
  return [
    `profile: ${s.totalMs} ms wall, idle ${s.idleMs} ms, GC ${s.gcMs} ms${s.focus ? `, under /${s.focus.pattern}/ ${s.focus.totalMs} ms` : ''}`,
    'self time by function:',
    ...s.byFunction.map((f) => `  ${f.selfMs.toFixed(1).padStart(8)} ms  ${f.name}`),
    'self time by file:',
    ...s.byFile.map((f) => `  ${f.selfMs.toFixed(1).padStart(8)} ms  ${f.file}`),
  ].join('\n');
}

if (require.main === module) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      top: { type: 'string', default: '25' },
      focus: { type: 'string' },
      after: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const file = positionals[0];
  if (!file) {
    process.stderr.write(
      'usage: cpuProfileSummary.ts FILE.cpuprofile [--top N] [--focus REGEX] [--after REGEX] [--json]\n',
    );
    process.exitCode = 2;
  } else {
    const pattern = (v: string | undefined) => (v ? new RegExp(v) : undefined);
    const s = summarizeProfile(
      JSON.parse(readFileSync(file, 'utf8')) as CpuProfile,
      Number(values.top),
      pattern(values.focus),
      pattern(values.after),
    );
    process.stdout.write(`${values.json ? JSON.stringify(s, null, 2) : formatSummary(s)}\n`);
  }
}
