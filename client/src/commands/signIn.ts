/**
 * "MCP Lens: Sign In to a Server" / "Sign Out of a Server": for remote servers that need an
 * account (OAuth). With no server named (the palette) a pick lists the servers that sign in,
 * those that need it first; the status bar, List Servers and the dashboard name one.
 */
import * as vscode from 'vscode';
import { ServersRequest, SignInRequest, SignOutRequest } from '../../../protocol/lspProtocol';
import type { ServerStatus } from '../../../protocol/model';
import type { ExtensionServices } from '../services';
import { paletteText } from './noMatchItems';

export async function signIn(s: ExtensionServices, name?: unknown): Promise<void> {
  const server =
    typeof name === 'string' ? name : await pick(s, 'Sign in to which server?', (x) => x.state === 'needs-sign-in');
  if (!server) return;
  await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `MCP Lens: signing in to ${paletteText(server, 80)} — finish in your browser…`,
    },
    () => s.sidecar.request(SignInRequest, { name: server }),
  );
  void vscode.window.showInformationMessage(`MCP Lens: signed in to ${paletteText(server, 80)}.`);
}

export async function signOut(s: ExtensionServices, name?: unknown): Promise<void> {
  const server =
    typeof name === 'string' ? name : await pick(s, 'Sign out of which server?', (x) => x.state !== 'needs-sign-in');
  if (!server) return;
  await s.sidecar.request(SignOutRequest, { name: server });
  void vscode.window.showInformationMessage(
    `MCP Lens: signed out of ${paletteText(server, 80)}; its tokens are forgotten.`,
  );
}

async function pick(
  s: ExtensionServices,
  title: string,
  first: (s: ServerStatus) => boolean,
): Promise<string | undefined> {
  const servers = (await s.sidecar.request(ServersRequest)).filter((x) => x.signIn);
  if (servers.length === 0) {
    void vscode.window.showInformationMessage('MCP Lens: no remote server here signs in with an account.');
    return undefined;
  }
  const ordered = [...servers].sort((a, b) => Number(first(b)) - Number(first(a)) || a.name.localeCompare(b.name));
  const picked = await vscode.window.showQuickPick(
    ordered.map((x) => ({
      label: paletteText(x.name, 80),
      description: x.state === 'needs-sign-in' ? 'needs sign-in' : x.state,
      name: x.name,
    })),
    { title: `MCP Lens: ${title}` },
  );
  return picked?.name;
}
