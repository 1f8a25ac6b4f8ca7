/** QuickJS's WebAssembly build, one instance per run, with the run's memory limit as its memory's maximum. */
import type { QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';

/** A WebAssembly page. */
const PAGE_BYTES = 64 * 1024;
/** The memory QuickJS's build starts with (its INITIAL_MEMORY): static data, stack, first heap. */
const INITIAL_PAGES = (16 * 1024 * 1024) / PAGE_BYTES;

/**
 * A fresh WebAssembly instance of QuickJS whose linear memory can grow by at most
 * `memoryBytes`. That maximum is the memory limit that holds: QuickJS's own (setMemoryLimit)
 * counts an allocation by a size this build cannot read (no malloc_usable_size), so alone it
 * let a script grow the memory to the wasm's 2 GB. At the maximum, malloc fails and the script
 * gets QuickJS's "out of memory". The engine (JavaScript with the wasm in it) is loaded by a
 * script worker (sandboxWorker.ts), never on the gateway's thread.
 */
export async function newModule(memoryBytes: number): Promise<QuickJSWASMModule> {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded here, on first use (CommonJS builds) */
  const { newQuickJSWASMModuleFromVariant, newVariant } =
    require('quickjs-emscripten-core') as typeof import('quickjs-emscripten-core');
  const releaseSync = (require('@jitl/quickjs-singlefile-cjs-release-sync') as { default: QuickJSSyncVariant }).default;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const maximum = INITIAL_PAGES + Math.ceil(memoryBytes / PAGE_BYTES);
  // The server's types have no DOM, where WebAssembly's constructors are declared.
  type Options = NonNullable<Parameters<typeof newVariant>[1]>;
  const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (d: object) => Options['wasmMemory'] } })
    .WebAssembly;
  const wasmMemory = new Memory({ initial: INITIAL_PAGES, maximum });
  return newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmMemory }));
}
