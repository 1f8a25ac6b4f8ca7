/**
 * The client the conformance suite's auth scenarios run (`conformance client --suite auth
 * --command "node --import tsx test/conformance/authClient.ts"`): MCP Lens's own upstream pool,
 * connection and OAuth provider against the suite's servers. The suite appends the server URL
 * and names the scenario in MCP_CONFORMANCE_SCENARIO (context, such as pre-registered
 * credentials, in MCP_CONFORMANCE_CONTEXT). The sign-in completes headlessly (headlessDoor.ts):
 * the suite's authorization endpoint redirects at once.
 *
 * It connects (which lists the tools), calls `test-tool`, and exits 0 only when the call
 * succeeded. Nothing here is scenario-specific except how the `oauth` entry is written, as a user
 * would write it: pre-registered credentials where the scenario provides them, otherwise a
 * Client ID Metadata Document URL (used where the authorization server supports one; MCP Lens
 * registers dynamically elsewhere).
 */
import { MemoryOAuthStore } from '../../server/src/adapters/upstream/auth/oauthStore';
import { UpstreamPool } from '../../server/src/adapters/upstream/pool';
import type { OAuthClientConfig, RemoteServerConfig } from '../../server/src/core/config/types';
import { stderrLogger } from '../../server/src/cli/stderrLogger';
import { errorMessage } from '../../server/src/core/errorMessage';
import { headlessDoor } from './headlessDoor';

/** The client metadata URL the suite's CIMD scenario expects (it does not fetch it). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

function oauthEntry(): OAuthClientConfig {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  const context = raw ? (JSON.parse(raw) as { client_id?: string; client_secret?: string }) : {};
  if (context.client_id)
    return { clientId: context.client_id, ...(context.client_secret && { clientSecret: context.client_secret }) };
  return { clientId: CLIENT_METADATA_URL };
}

async function main(url: string): Promise<number> {
  const log = stderrLogger('info');
  const server: RemoteServerConfig = {
    type: 'http',
    name: 'conformance',
    source: { kind: 'cli-config', file: 'conformance', path: 'servers.conformance' },
    fingerprint: 'conformance',
    url,
    headers: {},
    oauth: oauthEntry(),
  };
  const pool = new UpstreamPool({
    log,
    connectTimeoutMs: 15_000,
    restart: { initialDelayMs: 100, maxDelayMs: 100, maxAttempts: 0 },
    oauth: { store: new MemoryOAuthStore(), door: headlessDoor(), autoSignIn: true, signInTimeoutMs: 15_000 },
  });
  try {
    await pool.setServers([server]);
    const result = await pool.callTool('conformance', 'test-tool', {}, { timeoutMs: 15_000 });
    const status = pool.statuses()[0];
    log.info(`called test-tool (${status?.toolCount ?? 0} tools listed): ${result.isError ? 'error result' : 'ok'}`);
    return result.isError ? 1 : 0;
  } catch (error) {
    log.error(errorMessage(error));
    return 1;
  } finally {
    await pool.close();
  }
}

const url = process.argv[2];
if (!url) {
  process.stderr.write('usage: authClient.ts <server-url> (run by the conformance suite)\n');
  process.exit(2);
}
main(url).then((code) => process.exit(code));
