/**
 * The sidecar's entry: the extension starts `dist/server.js` over Node IPC. Builds the
 * connection and its logger, guards stdout, binds the handlers; nothing else.
 */
import './heapFlags';
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { markLensProcess } from './adapters/processProbe';
import { installStdoutGuard } from './adapters/stdoutGuard';
import { o200kTokenizer } from './adapters/tokens/o200kCounter';
import { useTokenCounter } from './core/tokens';
import { connectionLogger } from './lsp/connectionLogger';
import { SidecarConnection } from './lsp/connection';

function main(): void {
  markLensProcess('sidecar');
  useTokenCounter(o200kTokenizer);
  const connection = createConnection(ProposedFeatures.all);
  const log = connectionLogger(connection);
  // Libraries that print with console.log must not reach any stdio the transport might use.
  installStdoutGuard(log);
  const sidecar = new SidecarConnection(connection, log);
  const exitAfterShutdown = (code: number) => () => {
    // No upstream process may outlive MCP Lens: close the pool before exiting.
    sidecar.shutdown().finally(() => process.exit(code));
  };
  connection.onExit(exitAfterShutdown(0));
  process.on('SIGTERM', exitAfterShutdown(0));
  process.on('disconnect', exitAfterShutdown(0));
  process.on('uncaughtException', (err) => log.error(`uncaught: ${err.stack ?? err.message}`));
  process.on('unhandledRejection', (err) =>
    log.error(`unhandled rejection: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
  );
  connection.listen();
  log.info(`MCP Lens sidecar started (pid ${process.pid}, node ${process.version})`);
}

main();
