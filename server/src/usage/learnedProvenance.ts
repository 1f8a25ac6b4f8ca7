/**
 * Who taught what search learning knows (core/usage/learnedExamples.ts `by`), and so whom it
 * counts for (core/usage/learnedDocuments.ts): a teacher id, made from the id of whoever a
 * session acts for. Today that is the gateway session itself (its MCP session id): a session's
 * lessons count for it alone until another session teaches the same words for the same tool, or
 * the user shares them from the dashboard. When sessions get principals (who each session acts
 * for: the editor's sessions of one workspace, one HTTP client), `SearchLearningOptions.provenance`
 * maps a session to its principal's id instead, and a principal's sessions read one another's
 * lessons; nothing else changes, on disk either (the id is opaque).
 *
 * The id is a hash, so the learned file never holds a session id (with the gateway token, an HTTP
 * session id addresses a live session); it only has to tell teachers apart.
 */
import { createHash } from 'node:crypto';

/** A teacher id: 16 hex digits of a hash of `principal`. */
export function teacherId(principal: string): string {
  return createHash('sha256').update('mcp-lens search learning\u0000').update(principal).digest('hex').slice(0, 16);
}
