/**
 * Who taught what search learning knows (core/usage/learnedExamples.ts `by`), and so whom it
 * counts for (core/usage/learnedDocuments.ts): a teacher id, made from the gateway session's own
 * id (its MCP session id), not its principal's (core/principal.ts): every editor session acts for
 * the workspace, and one prompt-injected agent session must not steer the others. A session's
 * lessons count for it alone until another session teaches the same words for the same tool, or
 * the user shares them from the dashboard. `SearchLearningOptions.provenance` maps a session to
 * another id (the replay's one-teacher runs); the id is opaque, on disk too.
 *
 * The id is a hash, so the learned file never holds a session id (with the gateway token, an HTTP
 * session id addresses a live session); it only has to tell teachers apart.
 */
import { createHash } from 'node:crypto';

/** A teacher id: 16 hex digits of a hash of `principal`. */
export function teacherId(principal: string): string {
  return createHash('sha256').update('mcp-lens search learning\u0000').update(principal).digest('hex').slice(0, 16);
}
