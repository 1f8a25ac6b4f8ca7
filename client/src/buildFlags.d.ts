/**
 * Constants esbuild.mjs defines at build time (`define`): branches on them are removed from
 * bundles where they are false.
 */

/** True only in the e2e build (`node esbuild.mjs --e2e`): the test-only hooks of e2eHooks.ts. */
declare const __E2E_HOOKS__: boolean;
