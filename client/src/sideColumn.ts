/**
 * Where a side view opens (the dashboard, a tool's schema or result), pure so it is
 * unit-tested without VS Code. Opening "beside" the active editor every time creates a new
 * split whenever the active group is the rightmost one, so each open narrowed the editors
 * further. Instead: the column the view had last, while that group still exists; else another
 * existing group (right of the active one, or left of it when the active one is the last);
 * a new split beside only when there is a single group.
 */

/** The part of `vscode.window.tabGroups` this needs. */
export interface EditorLayout {
  readonly all: readonly { readonly viewColumn: number }[];
  readonly activeTabGroup: { readonly viewColumn: number };
}

/** A column number, or `beside` (vscode.ViewColumn.Beside: a new split next to the active group). */
export function sideColumn(layout: EditorLayout, last?: number): number | 'beside' {
  const columns = layout.all.map((g) => g.viewColumn);
  if (last !== undefined && columns.includes(last)) return last;
  const active = layout.activeTabGroup.viewColumn;
  const right = columns.filter((c) => c > active);
  if (right.length) return Math.min(...right);
  const left = columns.filter((c) => c < active);
  if (left.length) return Math.max(...left);
  return 'beside';
}
