/**
 * What a tool's annotations (MCP `ToolAnnotations`, as its server listed them) say about what it
 * does. They are the server's hints, not a guarantee; MCP Lens reads them only to be more careful
 * (search learning never lifts a destructive tool to first place, core/usage/learnedLimits.ts),
 * never to trust a tool more. Pure.
 */

/**
 * Whether the annotations say the tool may destroy data: `destructiveHint: true`, or
 * `readOnlyHint: false` without `destructiveHint: false` (the specification's default for a tool
 * that is not read-only is destructive). A tool without annotations says nothing either way.
 */
export function isDestructiveTool(annotations: Record<string, unknown> | undefined): boolean {
  if (!annotations) return false;
  if (annotations.destructiveHint === true) return true;
  return annotations.readOnlyHint === false && annotations.destructiveHint !== false;
}
