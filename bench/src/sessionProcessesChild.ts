/**
 * The measured side of `sessionProcesses.ts`: a LensApp over the dev workspace (keyword index in
 * memory, every server approved) behind the gateway over streamable HTTP on 127.0.0.1, as the
 * sidecar and `serve --http` run them, with sessions mapped to principals as the front door
 * named by MODE does: `editor` (every session the workspace, lsp/sidecarSession.ts) or `serve`
 * (each session its own, the gateway's default). The parent bundles it like dist/server.js and
 * runs it with plain node, so the harness is not in the figures.
 *
 *   node child.cjs MODE WORKSPACE_DIR CONFIG_FILE TOKEN
 *
 * Prints one JSON line, `{ "url": ... }`, once every server settled, then serves until killed.
 */
import { WORKSPACE_PRINCIPAL } from '../../server/src/core/principal';
import { LensApp } from '../../server/src/app/lensApp';
import { GatewayHttpServer } from '../../server/src/gateway/http';
import { silentLogger } from '../../server/src/core/logger';
import { inMemoryLensOptions } from './inMemoryLens';

async function main(): Promise<void> {
  const [mode, workspace, configFile, token] = process.argv.slice(2);
  if ((mode !== 'editor' && mode !== 'serve') || !workspace || !configFile || !token)
    throw new Error('usage: child.cjs editor|serve WORKSPACE_DIR CONFIG_FILE TOKEN');
  const lens = await LensApp.start({
    ...inMemoryLensOptions(workspace, { exposure: 'all' }),
    configFile,
    waitForServers: true,
  });
  const http = new GatewayHttpServer({
    lens,
    token,
    log: silentLogger,
    ...(mode === 'editor' && { principalFor: () => WORKSPACE_PRINCIPAL }),
  });
  const { url } = await http.start();
  process.stdout.write(`${JSON.stringify({ url })}\n`);
  process.on(
    'SIGTERM',
    () =>
      void http
        .close()
        .then(() => lens.close())
        .then(() => process.exit(0)),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
