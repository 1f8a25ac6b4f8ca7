/**
 * What one MCP session may hold in the gateway at once, so that no session's flood reaches
 * another's answers or grows the gateway without bound (issue #31). Past each, the session's
 * next request gets an error at once that names the limit; nothing waits on it.
 * The turns at shared work (select evaluators: SELECT_LIMITS in resultShaping.ts; script
 * workers: RUN_CODE_LIMITS in gateway/metaToolDefs.ts; upstream calls: below) are handed out
 * round robin between sessions (fairQueue.ts).
 */
export const SESSION_LIMITS = {
  /**
   * tools/call requests of one session being answered at once (find_tools, call_tool, run_code
   * and direct calls alike). An agent and its subagents rarely have more than a handful.
   */
  callsInFlight: 16,
  /**
   * Bytes of upstream results one session holds while they wait for their `select` (the
   * results it keeps afterwards are bounded in gateway/resultStore.ts, 32 MB too).
   */
  resultBytesInFlight: 32 * 1024 * 1024,
} as const;

/**
 * Upstream tool calls in flight (run_code's inner calls included): all sessions together, and
 * one session. More wait their session's turn. One session never takes every turn, so
 * another's call starts at once however many one session sends.
 */
export const UPSTREAM_CALL_TURNS = { slots: 64, perKey: 16 } as const;
