/**
 * V8 heap settings for the sidecar and the CLI, set before anything else loads. The defaults
 * size the heap for throughput: `serve --http` over 2,220 tools (20 replay servers) peaked at
 * 298–348 MB RSS; with these, 182–185 MB. Single-query search latency did not change
 * (toolbench p50 0.20 vs 0.25 ms), but under the 200 + 200 concurrent load bench the gateway
 * does fewer requests per second (find_tools 853/s vs 911/s, call_tool 241/s vs 397/s): an
 * always-on editor sidecar serving one agent is worth the memory, not the last throughput.
 *
 * Set from inside the process, a flag only counts where V8 reads it as it goes: the size of a
 * heap that is already set up is not one of them (`--max-semi-space-size` here changed nothing:
 * the young generation still grew to 16 MB per semi-space). `--semi-space-growth-factor=1`
 * is read at each resize: the young generation stays at its first size (1 MB per semi-space).
 * `mcp-lens serve` on 22 servers (npm run bench:startup's workload, 6 runs each): peak RSS
 * 96–101 MB → 88–92 MB, with the same CPU time to its first answer and to every server
 * connected, and the same call_tool latency. Under load (bench/src/load.ts, 100 + 100 concurrent
 * workers for 15 s, 3–4 runs each, medians) it costs throughput again: call_tool ~220/s vs
 * ~290/s, find_tools ~470/s vs ~500/s, peak RSS ~103 MB vs ~125 MB.
 * Measured again once the work no one asked for waits while servers start (app/startupQuiet.ts):
 * cold `serve` on 23 servers to every server connected, the four choices interleaved, 5 runs
 * each (load average 5–12): the process's CPU (median) 500 ms with both flags, 510 without
 * `--optimize-for-size`, 520 with the young generation growing, 480 with neither (runs spread
 * 410–540 ms each: no cost to tell apart); peak RSS 83, 89, 99 and 98 MB. Both stay.
 * Import this module first.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_FLAGS = ['--optimize-for-size', '--semi-space-growth-factor=1'] as const;

for (const flag of HEAP_FLAGS) setFlagsFromString(flag);
