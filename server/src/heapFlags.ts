/**
 * V8 heap settings for the sidecar and the CLI, set before anything else loads. The defaults
 * size the heap for throughput: `serve --http` over 2,220 tools (20 replay servers) peaked at
 * 298–348 MB RSS; with these, 182–185 MB. Single-query search latency did not change
 * (toolbench p50 0.20 vs 0.25 ms), but under the 200 + 200 concurrent load bench the gateway
 * does fewer requests per second (find_tools 853/s vs 911/s, call_tool 241/s vs 397/s): an
 * always-on editor sidecar serving one agent is worth the memory, not the last throughput.
 * Import this module first.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_FLAGS = ['--optimize-for-size', '--max-semi-space-size=8'] as const;

for (const flag of HEAP_FLAGS) setFlagsFromString(flag);
