// ESLint (flat config): typescript-eslint's recommended rules, and the house's import layers
// (scripts/lint/layers.mjs; the map is in ARCHITECTURE.md). Tests, scripts and benches may
// import anything; product code imports only downward.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layersRule } from './scripts/lint/layers.mjs';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.e2e/**', '.conformance/**', 'test-results/**', 'bench/datasets/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mts'],
    plugins: { house: { rules: { layers: layersRule } } },
    rules: {
      'house/layers': 'error',
      // Both ends of the LSP contract use the objects of protocol/lspProtocol.ts, never a method string.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(sendRequest|sendNotification|onRequest|onNotification|request|notify)$/] > Literal.arguments:first-child[value=/^mcpLens\\//]',
          message: 'Use the RequestType/NotificationType object from protocol/lspProtocol.ts, not its method string.',
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
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
