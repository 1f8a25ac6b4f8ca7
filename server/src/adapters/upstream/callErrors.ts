/**
 * Turns whatever a failed request threw (McpError, AbortError, a transport error) into one
 * UpstreamCallError that names the server and tool and says which kind of failure it was.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { OversizedMessageError } from './stdioReader';
import { UpstreamCallError } from './types';
import { errorMessage } from '../../core/errorMessage';

export interface CallContext {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  tool?: string | undefined;
  /** What was asked when it is not a tool ("prompt x", "resource y"), for the message. */
  what?: string | undefined;
  /** Last stderr line of the server, often the reason it died. */
  stderrLine?: string | undefined;
}

export function classifyCallError(error: unknown, server: string, ctx: CallContext): UpstreamCallError {
  const prefix = ctx.what ? `${ctx.what}: ` : '';
  if (ctx.signal?.aborted) return new UpstreamCallError('cancelled', server, `${prefix}cancelled`, ctx.tool);
  if (error instanceof McpError) {
    // Not the server's words: the reply it sent was dropped for its size (stdioReader.ts).
    if (error.data instanceof OversizedMessageError)
      return new UpstreamCallError('upstream-error', server, `${prefix}${error.data.reason}`, ctx.tool);
    if (error.code === ErrorCode.RequestTimeout) {
      return new UpstreamCallError(
        'timeout',
        server,
        `${prefix}timed out after ${ctx.timeoutMs} ms`,
        ctx.tool,
        error.code,
      );
    }
    if (error.code === ErrorCode.ConnectionClosed) return disconnected(server, prefix, ctx);
    return new UpstreamCallError(
      'upstream-error',
      server,
      `${prefix}${error.message}`,
      ctx.tool,
      error.code,
      error.data,
    );
  }
  return disconnected(server, prefix, ctx, errorMessage(error));
}

function disconnected(
  server: string,
  prefix: string,
  ctx: CallContext,
  detail = 'connection closed',
): UpstreamCallError {
  const why = ctx.stderrLine ? `${detail} (stderr: ${ctx.stderrLine})` : detail;
  return new UpstreamCallError('disconnected', server, `${prefix}${why}`, ctx.tool, ErrorCode.ConnectionClosed);
}
