/** A tool call made by a person (dashboard "Try it", the palette), answered as the plain outcome they see. */
import type { ToolCallOutcome } from '../../../protocol/model';
import type { CallOptions, Lens } from './lens';

/** Calls through the Lens (which turns failures into results) and times the call. */
export async function toolCallOutcome(
  lens: Lens,
  name: string,
  args: Record<string, unknown>,
  origin: NonNullable<CallOptions['origin']>,
): Promise<ToolCallOutcome> {
  const started = Date.now();
  const r = await lens.callTool(name, args, { origin });
  const outcome: ToolCallOutcome = {
    isError: r.isError === true,
    content: r.content ?? [],
    durationMs: Date.now() - started,
  };
  if (r.structuredContent !== undefined) outcome.structuredContent = r.structuredContent;
  return outcome;
}
