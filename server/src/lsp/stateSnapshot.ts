/** The state the sidecar pushes to the editor, built from the session (no LSP here). */
import type { NotificationType } from 'vscode-jsonrpc';
import {
  AcceptedToolFilterNotification,
  ApprovalNeededNotification,
  ConfigProblemsNotification,
  InputsNeededNotification,
  type ApprovalNeededParams,
  type ConfigProblemsParams,
  type InputsNeededParams,
  type StateChangedParams,
} from '../../../protocol/lspProtocol';
import type { SidecarSession } from './sidecarSession';

export function stateOf(s: SidecarSession): StateChangedParams {
  const stats = s.stats();
  return { servers: s.lens.servers(), index: s.lens.indexStatus(), stats, gateway: s.gatewayInfo(stats) };
}

/** One server → client notification and its payload, type-checked against each other. */
export interface DerivedNotification {
  type: NotificationType<unknown>;
  params: unknown;
}

function notification<P>(type: NotificationType<P>, params: P): DerivedNotification {
  return { type: type as NotificationType<unknown>, params };
}

/** Approvals and inputs the user must give, and config problems to mark in the editor. */
export function derivedNotifications(s: SidecarSession): DerivedNotification[] {
  const approvals: ApprovalNeededParams = { servers: s.lens.pendingApprovals() };
  // Only ids are known here; a password box is the safe default for an unknown input.
  const inputs: InputsNeededParams = { inputs: s.lens.missingInputs().map((id) => ({ id, password: true })) };
  const problems: ConfigProblemsParams = {
    problems: s.lens.configProblems().map((p) => ({
      severity: p.severity,
      file: p.file,
      path: p.path,
      message: p.message,
      ...(p.server ? { server: p.server } : {}),
      ...(p.offset !== undefined ? { offset: p.offset, length: p.length ?? 0 } : {}),
      ...(p.note !== undefined ? { note: p.note } : {}),
    })),
  };
  return [
    notification(ApprovalNeededNotification, approvals),
    notification(InputsNeededNotification, inputs),
    notification(ConfigProblemsNotification, problems),
    // Recorded by the extension with its approvals: a restarted sidecar starts from it.
    notification(AcceptedToolFilterNotification, { value: s.lens.acceptedToolFilter() }),
  ];
}
