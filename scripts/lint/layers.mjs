// The house's layers as an ESLint rule: each folder imports only from the layers below it
// (ARCHITECTURE.md draws the map). A relative import is resolved to the file it names and
// checked against the table; a package import is checked against the layer's banned packages
// (the pure core does no I/O; the webview runs in a browser).
import { dirname, relative, resolve, sep } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..', '..');

/** Node modules that do I/O: the pure core and the browser code import none of them. */
const IO_MODULES = [
  'fs',
  'fs/promises',
  'net',
  'http',
  'https',
  'http2',
  'child_process',
  'dgram',
  'dns',
  'tls',
  'os',
  'worker_threads',
  'cluster',
  'readline',
  'process',
];
const nodeIo = IO_MODULES.flatMap((m) => [m, `node:${m}`]);

/**
 * Layers, most specific path first wins. `may`: the other layers it imports from (its own is
 * always allowed). `bans`: packages it must not import (a name also bans its subpaths).
 */
export const LAYERS = [
  { name: 'lspProtocol', path: 'protocol/lspProtocol.ts', may: ['protocol'] },
  { name: 'protocol', path: 'protocol', may: [], bans: [...nodeIo, 'vscode'] },
  {
    name: 'core',
    path: 'server/src/core',
    may: ['protocol'],
    bans: [
      ...nodeIo,
      '@lancedb/lancedb',
      'apache-arrow',
      'ollama',
      'vscode',
      'vscode-languageserver',
      'quickjs-emscripten-core',
    ],
  },
  // The adapters' contracts: what the layers above hold on to instead of a concrete adapter.
  {
    name: 'adapterContracts',
    path: [
      'server/src/adapters/embed/embedder.ts',
      'server/src/adapters/store/toolStore.ts',
      'server/src/adapters/upstream/types.ts',
      'server/src/adapters/upstream/auth/types.ts',
    ],
    may: ['core', 'protocol'],
  },
  { name: 'adapters', path: 'server/src/adapters', may: ['adapterContracts', 'core', 'protocol'] },
  { name: 'index', path: 'server/src/index', may: ['adapterContracts', 'core', 'protocol'] },
  { name: 'usage', path: 'server/src/usage', may: ['adapters', 'adapterContracts', 'core', 'protocol'] },
  { name: 'app', path: 'server/src/app', may: ['index', 'usage', 'adapters', 'adapterContracts', 'core', 'protocol'] },
  { name: 'gateway', path: 'server/src/gateway', may: ['app', 'adapters', 'adapterContracts', 'core', 'protocol'] },
  {
    name: 'lsp',
    path: 'server/src/lsp',
    may: ['gateway', 'app', 'adapters', 'adapterContracts', 'core', 'protocol', 'lspProtocol'],
  },
  {
    name: 'cli',
    path: 'server/src/cli',
    may: ['heapFlags', 'gateway', 'app', 'index', 'adapters', 'adapterContracts', 'core', 'protocol'],
  },
  { name: 'heapFlags', path: 'server/src/heapFlags.ts', may: [] },
  { name: 'sidecarMain', path: 'server/src/main.ts', may: ['heapFlags', 'lsp', 'adapters', 'core', 'protocol'] },
  // The benches (bench/src/, bundled as dist/bench.js) sit above the whole product and may use any
  // of it but the entry points; no product layer lists them, so product code imports nothing from
  // them. The CLI reaches `mcp-lens bench` only by loading that bundle by path (cli/benchEntry.ts).
  {
    name: 'bench',
    path: 'bench/src',
    may: [
      'cli',
      'lsp',
      'gateway',
      'app',
      'index',
      'usage',
      'adapters',
      'adapterContracts',
      'core',
      'protocol',
      'lspProtocol',
    ],
  },
  {
    name: 'client',
    path: 'client/src',
    may: ['protocol', 'lspProtocol'],
    bans: ['@lancedb/lancedb', 'ollama', '@modelcontextprotocol/sdk', 'vscode-languageserver'],
  },
  {
    name: 'webview',
    path: 'webview/src',
    may: ['protocol'],
    // zod too: the dashboard stays small (the schemas live in protocol files it does not import).
    bans: [...nodeIo, 'vscode', 'vscode-jsonrpc', 'vscode-languageclient', 'node:', 'zod'],
  },
];

const entries = LAYERS.flatMap((l) => [l.path].flat().map((p) => ({ layer: l, path: resolve(ROOT, p) }))).sort(
  (a, b) => b.path.length - a.path.length,
);

function layerOf(file) {
  const hit = entries.find((e) => file === e.path || file.startsWith(e.path + sep) || file.startsWith(e.path + '.'));
  return hit?.layer;
}

function resolveSpecifier(fromFile, spec) {
  const target = resolve(dirname(fromFile), spec);
  // `../app/lens` names app/lens.ts; a folder import names its index.ts.
  return /\.[cm]?[jt]s$|\.json$/.test(target) ? target : `${target}.ts`;
}

function banned(layer, spec) {
  return (layer.bans ?? []).find(
    (b) => spec === b || spec.startsWith(b.endsWith(':') ? b : `${b}/`) || (b.endsWith(':') && spec.startsWith(b)),
  );
}

const rel = (p) => relative(ROOT, p).split(sep).join('/');

/** @type {import('eslint').Rule.RuleModule} */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Imports run downward only: each layer imports from the layers ARCHITECTURE.md puts below it.',
    },
    schema: [],
    messages: {
      upward:
        '{{from}} ({{fromLayer}}) may not import {{to}} ({{toLayer}}): {{fromLayer}} imports only from {{allowed}}. See ARCHITECTURE.md.',
      banned: '{{from}} ({{fromLayer}}) may not import "{{spec}}": {{why}}',
      outside:
        '{{from}} ({{fromLayer}}) imports {{to}}, which belongs to no layer (tests and scripts are not importable from product code).',
    },
  },
  create(context) {
    const file = context.filename;
    const layer = layerOf(file);
    if (!layer) return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string') return;
      const from = rel(file);
      if (!spec.startsWith('.')) {
        const b = banned(layer, spec);
        if (b) {
          const why =
            layer.name === 'core'
              ? 'the core is pure (no I/O, no adapter libraries)'
              : layer.name === 'webview'
                ? 'the webview runs in a browser and talks to its host only through protocol/'
                : `${layer.name} must not depend on it`;
          context.report({ node, messageId: 'banned', data: { from, fromLayer: layer.name, spec, why } });
        }
        return;
      }
      const target = resolveSpecifier(file, spec);
      const to = layerOf(target);
      const data = {
        from,
        fromLayer: layer.name,
        to: rel(target),
        toLayer: to?.name ?? '-',
        allowed: [layer.name, ...layer.may].join(', '),
      };
      if (!to) {
        if (!rel(target).startsWith('package.json')) context.report({ node, messageId: 'outside', data });
        return;
      }
      if (to === layer || layer.may.includes(to.name)) return;
      context.report({ node, messageId: 'upward', data });
    };
    // Type-only imports count too: a type from above is an arrow running up all the same.
    return {
      ImportDeclaration: (n) => check(n, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
      ExportAllDeclaration: (n) => check(n, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n, n.source.value),
      TSImportType: (n) => check(n, n.argument?.literal?.value ?? n.argument?.value),
    };
  },
};
