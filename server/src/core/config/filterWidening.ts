/**
 * Whether a change of `mcpLens.include` / `mcpLens.exclude` shows more tools, decided on the
 * patterns as sets (a tool's name is not needed, so the answer holds for tools not listed yet):
 *  - exclude: a tool is hidden when any pattern matches it, so adding a pattern only hides
 *    more; removing or changing one may show a tool again (widening);
 *  - include: an empty list lets every tool through; otherwise a tool passes when any pattern
 *    matches. Going from a list to none widens; from none to a list narrows; adding or changing
 *    a pattern in a list widens (even `!github/*`, which matches almost everything); removing one
 *    narrows.
 * Patterns are compared as written (trimmed), never by what they happen to match today, so a
 * rewrite that matches the same tools (`Delete_*` for `delete_*`) counts as a widening:
 * conservative by design, the user is asked once more.
 */
import { filterPatterns, type ToolFilterLevel, type ToolFilterLevels } from '../../../../protocol/settings';
import { quotedForDisplay } from '../../../../protocol/untrustedText';
import type { ToolFilterSpec } from './toolFilter';

/** The filter the levels make: the workspace's include replaces the user's, excludes add up (as the editor reads them). */
export function effectiveFilter(levels: ToolFilterLevels): ToolFilterSpec {
  const include = filterPatterns(levels.workspace.include ?? levels.user.include);
  const exclude = [...new Set([...filterPatterns(levels.user.exclude), ...filterPatterns(levels.workspace.exclude)])];
  return { include, exclude };
}

/**
 * What `to` may show that `from` does not, one line per pattern for the user (escaped);
 * empty when `to` is as narrow as `from` or narrower.
 */
export function filterWidening(from: ToolFilterSpec, to: ToolFilterSpec): string[] {
  const lines: string[] = [];
  const toExclude = new Set(filterPatterns(to.exclude));
  for (const p of new Set(filterPatterns(from.exclude))) {
    if (!toExclude.has(p))
      lines.push(`exclude pattern ${quotedForDisplay(p)} removed: the tools it hid can be found and called`);
  }
  const fromInclude = new Set(filterPatterns(from.include));
  const toInclude = filterPatterns(to.include);
  if (fromInclude.size > 0 && toInclude.length === 0)
    lines.push('include emptied: every tool of every server can be found and called');
  else if (fromInclude.size > 0) {
    for (const p of new Set(toInclude))
      if (!fromInclude.has(p))
        lines.push(`include pattern ${quotedForDisplay(p)} added: the tools it matches can be found and called`);
  }
  return lines;
}

/** The workspace level swapped for another (the accepted one), the user's kept. */
export function withWorkspace(levels: ToolFilterLevels, workspace: ToolFilterLevel): ToolFilterLevels {
  return { user: levels.user, workspace };
}
