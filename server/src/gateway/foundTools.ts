/**
 * Exposure `found`: the tools one session's agent used through call_tool, listed as the host's
 * own beside the meta-tools, each with its own title, annotations, icons, output schema and
 * `_meta` (toolDefinition), so the host confirms each by its own rules and renders its app.
 *
 * A tool is added when the agent goes to use it: a call_tool call of it whose arguments passed
 * the checks, before MCP Lens's consent question (so a client that cannot be asked can still call
 * it directly and ask per tool itself). find_tools merely naming a tool adds nothing (its five
 * answers a query would churn the list); run_code's inner calls add nothing either, since a
 * script is how an agent keeps tools out of its context. The
 * list is the session's own (another session's agent never changes it), bounded by
 * `mcpLens.found.maxTools`, and only grows at its end: a client's prompt cache, which holds the
 * tools in order, is invalidated once per tool added. Past the bound, the tool used least
 * recently leaves (the one change that is not an append); using a listed tool moves nothing.
 * Tools are kept by catalog key, so a renamed client-safe name or a changed definition is
 * listed as the catalog has it now, and a tool gone from the catalog is not listed.
 */
export class FoundTools {
  /** Catalog keys in listing order. */
  private readonly order: string[] = [];
  /** Key → when it was last used (a counter, not a clock: ties cannot happen). */
  private readonly lastUse = new Map<string, number>();
  private clock = 0;

  /** A use of the tool with this key; true when the list changed (an append, perhaps an eviction). */
  use(key: string, max: number): boolean {
    this.lastUse.set(key, ++this.clock);
    if (this.order.includes(key)) return this.trim(max);
    this.order.push(key);
    this.trim(max);
    return true;
  }

  /** The keys listed now, at most `max`, in listing order. */
  keys(max: number): readonly string[] {
    this.trim(max);
    return this.order;
  }

  /** Evicts the least recently used until at most `max` are left (the bound may have been lowered). */
  private trim(max: number): boolean {
    let changed = false;
    while (this.order.length > Math.max(0, max)) {
      let oldest = 0;
      for (let i = 1; i < this.order.length; i++)
        if (this.lastUse.get(this.order[i]!)! < this.lastUse.get(this.order[oldest]!)!) oldest = i;
      this.lastUse.delete(this.order[oldest]!);
      this.order.splice(oldest, 1);
      changed = true;
    }
    return changed;
  }
}
