/**
 * Token accounting with the real o200k_base tokenizer. "What a client pays" for a set of
 * tools is the tokens of the JSON `tools` array it receives in `tools/list`: that is what
 * ends up in every request's tool definitions.
 */
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import type { CatalogTool } from './catalog';

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

/**
 * Each server's own `tools/list` cost (its original tool names), remembered per server: the
 * catalog is rebuilt on every server's change, and only a server whose definitions changed
 * is tokenized again (the JSON is cheap, the tokenizer is not).
 */
export class ServerListTokens {
  private memo = new Map<string, ServerListCost>();

  /** server → tokens of the tools/list it sends, for the servers that have tools here. */
  count(tools: readonly CatalogTool[]): Map<string, number> {
    return new Map([...this.costs(tools)].map(([server, c]) => [server, c.tokens]));
  }

  /** server → its tools/list JSON (original names), tool count and tokens. */
  costs(tools: readonly CatalogTool[]): Map<string, ServerListCost> {
    const byServer = new Map<string, ToolDefinitionLike[]>();
    for (const t of tools) {
      let defs = byServer.get(t.server);
      if (!defs) byServer.set(t.server, (defs = []));
      defs.push(definitionOf({ ...t, name: t.originalName }));
    }
    const memo = new Map<string, ServerListCost>();
    for (const [server, defs] of byServer) {
      const json = JSON.stringify(defs);
      const known = this.memo.get(server);
      memo.set(server, { json, tools: defs.length, tokens: known?.json === json ? known.tokens : countTokens(json) });
    }
    this.memo = memo;
    return memo;
  }
}

export interface ServerListCost {
  json: string;
  tools: number;
  tokens: number;
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
