/**
 * Runs code-server (VS Code 1.139 in the browser, installed by scripts/install-code-server.sh
 * into .e2e/) for the end-to-end test: its own user-data, extensions and config folders in a
 * temp dir, bound to 127.0.0.1 without auth, in its own process group (setsid) so that its file
 * watchers and extension hosts are killed with it.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../fixtures/lens/dashboardPage';

export const ROOT = join(__dirname, '..', '..');
export const NODE24 = join(ROOT, '.e2e', 'node24', 'node_modules', 'node', 'bin', 'node');
export const CODE_SERVER = join(ROOT, '.e2e', 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');

export interface CodeServer {
  url: string;
  /** Resolves once code-server listens. */
  ready: Promise<void>;
  userDataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

export function assertInstalled(): void {
  if (!existsSync(NODE24) || !existsSync(CODE_SERVER)) {
    throw new Error('code-server is not installed: run scripts/install-code-server.sh (needs libkrb5-dev from apt)');
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Installs a VSIX into the given extensions dir with code-server's own CLI. */
export function installExtension(vsix: string, dirs: { userDataDir: string; extensionsDir: string }): string {
  const r = spawnSync(
    NODE24,
    [
      CODE_SERVER,
      '--user-data-dir',
      dirs.userDataDir,
      '--extensions-dir',
      dirs.extensionsDir,
      '--install-extension',
      vsix,
    ],
    {
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  const out = `${r.stdout}\n${r.stderr}`;
  if (r.status !== 0) throw new Error(`code-server --install-extension failed (${r.status}): ${out}`);
  return out;
}

/** User settings for a code-server that asks nothing of the test: trusted, no tips, no updates, no telemetry. */
export const QUIET_EDITOR: Record<string, unknown> = {
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
};

/**
 * Checks the VSIX installed, waits for code-server, and opens the workbench at `query`
 * (`?folder=…` or `?workspace=…`) in headless Chromium once it has drawn. The caller closes
 * the browser; if opening fails, it is closed here.
 */
export async function openWorkbench(
  cs: CodeServer & { installLog: string },
  query: string,
): Promise<{ browser: Browser; page: Page }> {
  assert.match(cs.installLog, /successfully installed/i);
  await cs.ready;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${cs.url}/${query}`);
    await page.waitForSelector('.monaco-workbench', { timeout: 120_000 });
    return { browser, page };
  } catch (err) {
    await browser.close().catch(() => undefined);
    throw err;
  }
}

export interface StartOptions {
  base: string;
  userSettings: Record<string, unknown>;
  keybindings?: unknown[];
  env: Record<string, string>;
  /** Installed with --install-extension before code-server starts. */
  vsix: string;
}

export async function startCodeServer(
  o: StartOptions,
): Promise<CodeServer & { extensionsDir: string; installLog: string }> {
  const userDataDir = join(o.base, 'user-data');
  const extensionsDir = join(o.base, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(o.userSettings, null, 2));
  if (o.keybindings)
    writeFileSync(join(userDataDir, 'User', 'keybindings.json'), JSON.stringify(o.keybindings, null, 2));
  const installLog = installExtension(o.vsix, { userDataDir, extensionsDir });
  const port = await freePort();
  const config = join(o.base, 'config.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  return {
    url: `http://127.0.0.1:${port}`,
    userDataDir,
    extensionsDir,
    installLog,
    ...launch(o, { config, userDataDir, extensionsDir, port }),
  };
}

function launch(
  o: StartOptions,
  a: { config: string; userDataDir: string; extensionsDir: string; port: number },
): Omit<CodeServer, 'url' | 'userDataDir'> {
  const args = [
    CODE_SERVER,
    '--config',
    a.config,
    '--user-data-dir',
    a.userDataDir,
    '--extensions-dir',
    a.extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--bind-addr',
    `127.0.0.1:${a.port}`,
    '--auth',
    'none',
  ];
  // detached → setsid: code-server and everything it spawns share one new process group.
  const child: ChildProcess = spawn(NODE24, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...o.env },
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (b: Buffer) => {
      output += b.toString();
      if (/HTTP server listening on/.test(output)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`code-server exited (${code}) before listening:\n${output}`)));
  });
  // Awaited by the caller; this only keeps an early exit from being an unhandled rejection.
  ready.catch(() => undefined);
  const stop = async (): Promise<void> => {
    if (child.pid === undefined) return;
    const group = -child.pid;
    const gone = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
    try {
      process.kill(group, 'SIGTERM');
    } catch {
      return;
    }
    const t = setTimeout(() => {
      try {
        process.kill(group, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000);
    await gone;
    clearTimeout(t);
    // The group's stragglers (watchers, extension hosts) go too.
    try {
      process.kill(group, 'SIGKILL');
    } catch {
      // none left
    }
  };
  return { ready, output: () => output, stop };
}
