/**
 * A script worker (dist/sandboxWorker.js): a worker thread of the gateway that runs run_code
 * scripts in QuickJS, one at a time, so a busy loop, a deep recursion or a memory bomb spends
 * this thread and never the gateway's. It loads and compiles QuickJS, and runs one empty script,
 * before it says it is ready (a warm worker's first script pays nothing to start), and holds
 * nothing between runs but that compiled code. Its tool calls and reads go to the gateway as messages
 * (sandboxMessages.ts); the gateway ends it (worker.terminate) if a run outlives its deadline.
 */
import { parentPort } from 'node:worker_threads';
import { errorMessage } from '../../core/errorMessage';
import { runScript, type ScriptHost } from './quickjsSandbox';
import type { FromWorker, ToWorker } from './sandboxMessages';

const port = parentPort!;
const send = (message: FromWorker) => port.postMessage(message);
const pending = new Map<number, { resolve: (json: string | undefined) => void; reject: (err: Error) => void }>();
let nextId = 1;
let cancel: AbortController | undefined;

/** A call or read sent to the gateway; settles when its answer comes back. */
function ask(
  message: { type: 'call'; name: string; args: unknown; options: unknown } | { type: 'read'; uri: string },
  signal?: AbortSignal,
): Promise<string | undefined> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    signal?.addEventListener('abort', () => pending.has(id) && send({ type: 'abort', id }), { once: true });
    send({ ...message, id });
  });
}

async function run(message: Extract<ToWorker, { type: 'run' }>): Promise<void> {
  const host: ScriptHost = {
    toolNames: message.toolNames,
    callTool: (name, args, options, signal) => ask({ type: 'call', name, args, options }, signal),
    readResult: (uri) => ask({ type: 'read', uri }),
  };
  cancel = new AbortController();
  const outcome = await runScript(message.code, host, message.limits, cancel.signal);
  cancel = undefined;
  // Answers still on their way belong to a run that is over.
  pending.clear();
  send({ type: 'done', outcome });
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'run') void run(message);
  else if (message.type === 'cancel') cancel?.abort();
  else {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.ok) waiter?.resolve(message.json);
    else waiter?.reject(new Error(message.message));
  }
});

/**
 * Loads QuickJS and runs one empty script through the whole path (instance, runtime, prelude,
 * runner), so the first script a session sends finds everything compiled.
 */
async function warmUp(): Promise<void> {
  const host: ScriptHost = { toolNames: [], callTool: async () => undefined, readResult: async () => undefined };
  const limits = {
    wallTimeMs: 60_000,
    memoryBytes: 1024 * 1024,
    maxCalls: 0,
    maxOutputChars: 100,
    maxLogChars: 100,
    maxArgsChars: 100,
  };
  const outcome = await runScript('return 1', host, limits);
  if (!outcome.ok) throw new Error(outcome.error?.message);
}

warmUp().then(
  () => send({ type: 'ready' }),
  (err: unknown) => {
    throw new Error(`QuickJS did not load: ${errorMessage(err)}`);
  },
);
