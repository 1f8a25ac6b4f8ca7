// ESLint (flat config): typescript-eslint's recommended rules, and the house's import layers
// (scripts/lint/layers.mjs; the map is in ARCHITECTURE.md). Tests and scripts may import
// anything, the benches (bench/src/) any product code; product code imports only downward.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layersRule } from './scripts/lint/layers.mjs';

// Both ends of the LSP contract use the objects of protocol/lspProtocol.ts, never a method string.
const LSP_METHOD_STRING = {
  selector:
    'CallExpression[callee.property.name=/^(sendRequest|sendNotification|onRequest|onNotification|request|notify)$/] > Literal.arguments:first-child[value=/^mcpLens\\//]',
  message: 'Use the RequestType/NotificationType object from protocol/lspProtocol.ts, not its method string.',
};

// Importing a module does nothing but declare: what runs at start is chosen by the composition
// root (main.ts, cli/main.ts, LensApp.start), so tests, benches and bundles get no hidden state.
const IMPORT_TIME_EFFECT = 'No side effects at import: run it from the entry point or from a start function.';
const NO_IMPORT_TIME_EFFECTS = [
  { selector: 'Program > ExpressionStatement:not([directive])', message: IMPORT_TIME_EFFECT },
  {
    selector:
      'Program > :matches(IfStatement, ForStatement, ForInStatement, ForOfStatement, WhileStatement, DoWhileStatement, TryStatement, BlockStatement)',
    message: IMPORT_TIME_EFFECT,
  },
  { selector: 'ImportDeclaration[specifiers.length=0]:not([importKind="type"])', message: IMPORT_TIME_EFFECT },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.e2e/**',
      '.conformance/**',
      'test-results/**',
      'bench/datasets/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mts'],
    plugins: { house: { rules: { layers: layersRule } } },
    rules: {
      'house/layers': 'error',
      'no-restricted-syntax': ['error', LSP_METHOD_STRING],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Product code, but for the entry points.
    files: ['server/src/**/*.ts', 'protocol/**/*.ts', 'client/src/**/*.ts', 'webview/src/**/*.ts'],
    ignores: [
      'server/src/main.ts',
      'server/src/cli/main.ts',
      'server/src/cli/launch.ts',
      'server/src/heapFlags.ts',
      'server/src/adapters/select/selectChild.ts',
      'server/src/adapters/sandbox/sandboxWorker.ts',
      'server/src/adapters/usage/learnedFileWorker.ts',
      'webview/src/main.ts',
    ],
    rules: { 'no-restricted-syntax': ['error', LSP_METHOD_STRING, ...NO_IMPORT_TIME_EFFECTS] },
  },
  {
    // House size rules for product code (the benches, bench/src/, are not product code).
    files: ['server/src/**/*.ts', 'protocol/**/*.ts', 'client/src/**/*.ts', 'webview/src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 80, IIFEs: true }],
    },
  },
  {
    // Over 400 lines, each one class whose private state is the point: the store's write queue,
    // mirror, snapshot and vector-index states change together in one order (lanceToolStore), and
    // the backfill's batches, health and stop signal likewise (embeddingBackfill). Split by
    // method, that state would be shared across files. Every function in them is under 80 lines.
    files: ['server/src/adapters/store/lanceToolStore.ts', 'server/src/index/embeddingBackfill.ts'],
    rules: { 'max-lines': 'off' },
  },
  {
    // The front doors hold the interfaces (app/lens.ts, app/lensControl.ts), never the class
    // behind them: what they may reach stays declared. They name LensApp only to call start().
    files: ['server/src/gateway/**/*.ts', 'server/src/lsp/**/*.ts', 'server/src/cli/**/*.ts', 'bench/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-types': [
        'error',
        {
          types: {
            LensApp:
              'Hold a Lens, or Lens & LensControl where the front door owns it (app/lens.ts, app/lensControl.ts).',
          },
        },
      ],
    },
  },
  {
    // Rules of the recommended sets that fight the house on purpose:
    rules: {
      // Sanitizing untrusted text means matching control characters (protocol/untrustedText.ts).
      'no-control-regex': 'off',
      // Errors are rewritten to name the server, file or tool without what must not leak
      // (secrets, tool arguments); chaining the original as `cause` would carry it along.
      'preserve-caught-error': 'off',
      // A zero-width space keeps `*/` from closing a comment that shows a glob.
      'no-irregular-whitespace': ['error', { skipComments: true }],
      // `(a, b)` statements in a few tight loops are deliberate.
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        AbortController: 'readonly',
        structuredClone: 'readonly',
        performance: 'readonly',
        queueMicrotask: 'readonly',
        setImmediate: 'readonly',
      },
    },
  },
);
