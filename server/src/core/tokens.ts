/**
 * Token accounting with the real o200k_base tokenizer. "What a client pays" for a set of
 * tools is the tokens of the JSON `tools` array it receives in `tools/list`: that is what
 * ends up in every request's tool definitions.
 */
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

/** Tokens of a text, o200k_base. Special-token markers in third-party text are counted as text. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  return countO200k(text, { allowedSpecial: 'all' } as never);
}

/** The fields of a tool definition a client receives. */
export interface ToolDefinitionLike {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

/** Tokens of a `tools/list` result's `tools` array as JSON. */
export function toolListTokens(tools: readonly ToolDefinitionLike[]): number {
  return countTokens(JSON.stringify(tools.map(definitionOf)));
}

/** Tokens of one tool definition as JSON. Summing these is within a few tokens of toolListTokens. */
export function toolTokens(tool: ToolDefinitionLike): number {
  return countTokens(JSON.stringify(definitionOf(tool)));
}

function definitionOf(t: ToolDefinitionLike): ToolDefinitionLike {
  const d: ToolDefinitionLike = { name: t.name, inputSchema: t.inputSchema };
  if (t.title !== undefined) d.title = t.title;
  if (t.description !== undefined) d.description = t.description;
  if (t.outputSchema !== undefined) d.outputSchema = t.outputSchema;
  if (t.annotations !== undefined) d.annotations = t.annotations;
  return d;
}

/** Percentage saved going from `baseline` to `exposed`, one decimal; 0 when there is no baseline. */
export function savingsPercent(baseline: number, exposed: number): number {
  if (baseline <= 0) return 0;
  return Math.round(((baseline - exposed) / baseline) * 1000) / 10;
}
