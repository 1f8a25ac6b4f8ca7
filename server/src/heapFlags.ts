/**
 * V8 heap settings for the sidecar and the CLI, set before anything else loads. V8's defaults
 * size the heap for throughput; an always-on editor sidecar serving one agent is worth the
 * memory more than the last requests per second, so these trade a little throughput under heavy
 * concurrent load for a markedly smaller resident set, at the same start-up CPU and call
 * latency (bench-results.md, "Heap flags", has the runs and their commands).
 *
 * Set from inside the process, a flag only counts where V8 reads it as it goes: the size of a
 * heap that is already set up is not one of them (so no `--max-semi-space-size` here).
 * `--semi-space-growth-factor=1` is read at each resize: the young generation stays at its
 * first size. Import this module first.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_FLAGS = ['--optimize-for-size', '--semi-space-growth-factor=1'] as const;

for (const flag of HEAP_FLAGS) setFlagsFromString(flag);
