/**
 * Each meta-tool's arguments, declared once as a zod schema: the handler's type, the check every
 * call passes before it reaches the Lens, and the `inputSchema` clients see (metaToolDefs.ts
 * derives it) all come from here, so the schema a client sees is the one enforced. Handlers
 * then check only what a schema cannot say (a server that exists, a timeout under the user's
 * setting). Problems name the meta-tool and the argument and never carry its value
 * (protocol/schemaProblems.ts).
 *
 * Every string has a length cap and every array an item cap: far past what an agent writes (the
 * longest query of the bench datasets is 1,089 characters, the longest tool name MCP Lens lists
 * 64), short of what could make the gateway work hard (issue #23). They are listed too, in
 * tools/list, whose token budget holds them.
 */
import * as z from 'zod/mini';
import { problemsText } from '../../../protocol/schemaProblems';
import { MAX_OUTPUT_TOKENS, MAX_SELECT_CHARS, MIN_OUTPUT_TOKENS, selectProblem } from '../core/resultShaping';

export const MAX_QUERY_CHARS = 2000;
export const MAX_KEYWORDS = 32;
/** A keyword is a tool or parameter name (MCP allows names of up to 128 characters). */
export const MAX_KEYWORD_CHARS = 128;
/** tool_name and server: listed names are at most 64 characters; an upstream's own name may be 128 beside its server's. */
export const MAX_NAME_CHARS = 256;
export const MAX_LIMIT = 50;

/** The limits of one run_code script, decided here and nowhere else. */
export const RUN_CODE_LIMITS = {
  defaultTimeoutMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  maxCalls: 100,
  /** The return value as JSON; past the model's max_output_tokens it is cut and kept anyway. */
  maxOutputChars: 4 * 1024 * 1024,
  maxLogChars: 64 * 1024,
  maxCodeChars: 100_000,
  /** Scripts running at once in one gateway, each on its own worker thread (each may hold up to memoryBytes). */
  maxConcurrent: 4,
  /** Of those, at once for one session: its others wait their turn, and other sessions' scripts start at once. */
  perSession: 2,
} as const;

const text = (max: number, ...checks: z.core.$ZodCheck<string>[]) => z.string().check(z.maxLength(max), ...checks);
const describe = z.describe;

/** A select expression that compiles; one past its length cap is not compiled (the cap says why). */
const compiles = z.check<string>((ctx) => {
  if (ctx.value.length > MAX_SELECT_CHARS) return;
  const problem = selectProblem(ctx.value);
  if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
});

/** Result shaping, the same for call_tool and for call_tool() inside run_code. */
const SHAPE_FIELDS = {
  select: z.optional(
    text(
      MAX_SELECT_CHARS,
      compiles,
      describe('JMESPath keeping only what you need of a JSON result, e.g. "items[].id".'),
    ),
  ),
  max_output_tokens: z.optional(
    z
      .int()
      .check(z.minimum(MIN_OUTPUT_TOKENS), z.maximum(MAX_OUTPUT_TOKENS), describe('Cap on the result, in tokens.')),
  ),
};

/** find_tools' arguments; `defaultLimit` only words the description of `limit`. One schema per value. */
export function findToolsArgs(defaultLimit: number): FindToolsSchema {
  let schema = findToolsByLimit.get(defaultLimit);
  if (!schema) findToolsByLimit.set(defaultLimit, (schema = findToolsSchema(defaultLimit)));
  return schema;
}

type FindToolsSchema = ReturnType<typeof findToolsSchema>;
const findToolsByLimit = new Map<number, FindToolsSchema>();

function findToolsSchema(defaultLimit: number) {
  return z.strictObject({
    query: text(MAX_QUERY_CHARS, z.minLength(1), describe('The task in plain words, e.g. "open a pull request".')),
    keywords: z.optional(
      z
        .array(text(MAX_KEYWORD_CHARS))
        .check(z.maxLength(MAX_KEYWORDS), describe('Exact words to weigh more (tool or parameter names).')),
    ),
    server: z.optional(text(MAX_NAME_CHARS, describe("Only this server's tools."))),
    limit: z.optional(
      z
        .int()
        .check(z.minimum(1), z.maximum(MAX_LIMIT), describe(`Default ${defaultLimit}; ask for more when none fits.`)),
    ),
    input_format: z.optional(
      z
        .enum(['schema', 'signature'])
        .check(describe('signature: TypeScript types of inputs and outputs, for run_code.')),
    ),
  });
}

export const CallToolArgs = z.strictObject({
  tool_name: text(MAX_NAME_CHARS),
  arguments: z.optional(z.record(z.string(), z.unknown())),
  ...SHAPE_FIELDS,
});

/**
 * What run_code's `call_tool(name, args, options)` takes: call_tool's arguments, by position;
 * an option it does not know is ignored, as a script's options object may hold anything.
 */
export const ScriptCallArgs = z.object(CallToolArgs.shape);

export const RunCodeArgs = z.strictObject({
  code: text(RUN_CODE_LIMITS.maxCodeChars, z.minLength(1)),
  timeout_ms: z.optional(z.int().check(z.minimum(1000), describe(`Default ${RUN_CODE_LIMITS.defaultTimeoutMs}.`))),
});

export const GetToolSchemaArgs = z.strictObject({ tool_name: text(MAX_NAME_CHARS) });

export const ListServersArgs = z.strictObject({});

export type FindToolsArgs = z.output<FindToolsSchema>;
export type CallToolArgs = z.output<typeof CallToolArgs>;
export type RunCodeArgs = z.output<typeof RunCodeArgs>;
export type GetToolSchemaArgs = z.output<typeof GetToolSchemaArgs>;
/** call_tool's result shaping (`select`, `max_output_tokens`), as the schema passed it. */
export type ShapeArgs = Pick<CallToolArgs, 'select' | 'max_output_tokens'>;

/** An object's schema as metaToolArgs reads it: its fields and what each is for. */
type ArgsSchema = z.ZodMiniObject<z.core.$ZodLooseShape, z.core.$ZodObjectConfig>;

/**
 * `args` checked against `schema`: the typed value, or why not in words a model can act on,
 * `label: problem; problem.` (the label names the meta-tool).
 */
export function parseArgs<S extends ArgsSchema>(
  label: string,
  schema: S,
  args: unknown,
): { ok: true; args: z.output<S> } | { ok: false; problem: string } {
  const parsed = schema.safeParse(args);
  if (parsed.success) return { ok: true, args: parsed.data };
  const problems = problemsText(parsed.error.issues, {
    value: args,
    fields: Object.keys(schema.shape),
    about: (field) => z.globalRegistry.get(schema.shape[field]!)?.description,
  });
  return { ok: false, problem: `${label}: ${problems}.` };
}
