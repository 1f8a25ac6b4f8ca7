/**
 * How the CLI signs in to remote servers: tokens in the user's 0600 file (FileOAuthStore), the
 * authorization page's address printed on stderr and, unless told not to, opened in the default
 * browser; the browser comes back to a loopback listener on 127.0.0.1 (serverAuth.ts).
 */
import { spawn } from 'node:child_process';
import { FileOAuthStore, oauthFilePath } from '../adapters/upstream/auth/fileOAuthStore';
import type { OAuthEnvironment, OAuthStore, SignInDoor } from '../adapters/upstream/auth/types';
import type { Logger } from '../core/logger';
import { escapeForDisplay } from '../../../protocol/untrustedText';

/** `store`: where the tokens go instead of the user's file (the team's state database). */
export function terminalOAuth(
  log: Logger,
  options: { openBrowser: boolean; autoSignIn?: boolean; store?: OAuthStore },
): OAuthEnvironment {
  return {
    store: options.store ?? new FileOAuthStore(oauthFilePath(), log),
    door: terminalDoor(options.openBrowser),
    signInHint: (server) => `run \`mcp-lens login ${server}\` in a terminal`,
    ...(options.autoSignIn && { autoSignIn: true }),
  };
}

function terminalDoor(openBrowser: boolean): SignInDoor {
  return {
    async openAuthorization(server, url) {
      process.stderr.write(
        `To sign in to ${escapeForDisplay(server)}, open this address in a browser:\n\n  ${url.href}\n\n`,
      );
      if (openBrowser) openInBrowser(url);
    },
  };
}

/** The system's opener, with the URL as one argument (no shell); only http(s) addresses. */
function openInBrowser(url: URL): void {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return;
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url.href]]
      : process.platform === 'win32'
        ? ['explorer.exe', [url.href]]
        : ['xdg-open', [url.href]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined); // no opener: the printed address is enough
    child.unref();
  } catch {
    // as above
  }
}
