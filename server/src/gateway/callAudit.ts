/**
 * Recording every tool call a session makes through MCP Lens — call_tool, a tool exposed
 * directly (tools/call), run_code's calls — as an AuditRecord (adapters/audit/auditSink.ts): who,
 * which server and tool, an argument fingerprint (the values only when the team's configuration
 * asks), the outcome, the duration and the result's tokens. The reply waits until the record is
 * durable, so no answered call is missing from the audit; a sink that fails is logged (never the
 * arguments) and the call is answered all the same.
 */
import { hostname } from 'node:os';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AuditRecord, AuditSink } from '../adapters/audit/auditSink';
import type { Lens } from '../app/lens';
import { argsFingerprint } from '../core/team/auditFingerprint';
import { errorMessage } from '../core/errorMessage';
import type { Logger } from '../core/logger';
import type { Principal } from '../core/principal';

/** What the gateway audits with (a team's; absent: nothing is recorded). */
export interface AuditSettings {
  sink: AuditSink;
  /** Keep argument values (the team configuration's `audit.arguments`). */
  arguments: boolean;
  /** Which replica this is: MCP_LENS_REPLICA_ID, or host:pid. */
  replica: string;
}

export function replicaId(env: NodeJS.ProcessEnv = process.env): string {
  return env.MCP_LENS_REPLICA_ID?.trim() || `${hostname()}:${process.pid}`;
}

export interface AuditedCall {
  via: 'call_tool' | 'run_code' | 'tools/call';
  /** The name the client asked for. */
  name: string;
  args: Record<string, unknown>;
  result: CallToolResult;
  /** MCP Lens refused it before any server saw it (a tool the person may not see or call). */
  refused: boolean;
  startedAt: number;
  resultTokens: number;
}

/** One session's recorder. */
export interface CallAudit {
  record(call: AuditedCall): Promise<void>;
}

const MAX_ERROR_CHARS = 300;

export function callAudit(
  settings: AuditSettings,
  principal: Principal,
  lens: Pick<Lens, 'findTool'>,
  log: Logger,
): CallAudit {
  return {
    async record(call) {
      const tool = lens.findTool(call.name);
      const outcome = call.refused ? 'refused' : call.result.isError ? 'error' : 'ok';
      const record: AuditRecord = {
        at: new Date(call.startedAt).toISOString(),
        principal: principal.id,
        via: call.via,
        server: tool?.server ?? '',
        tool: tool?.originalName ?? call.name.slice(0, 200),
        argsFingerprint: argsFingerprint(call.args),
        outcome,
        durationMs: Date.now() - call.startedAt,
        resultTokens: call.resultTokens,
        replica: settings.replica,
      };
      if (principal.person?.name) record.person = principal.person.name;
      if (settings.arguments) record.args = call.args;
      // MCP Lens's own refusal names only the tool; a server's error text may quote the
      // arguments, so it is kept only where argument values are.
      if (outcome === 'refused' || (outcome === 'error' && settings.arguments))
        record.error = errorTextOf(call.result).slice(0, MAX_ERROR_CHARS);
      try {
        await settings.sink.append(record);
      } catch (err) {
        log.error(`audit: a call to ${record.server}/${record.tool} was not recorded: ${errorMessage(err)}`);
      }
    },
  };
}

function errorTextOf(result: CallToolResult): string {
  return (result.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join(' ');
}
