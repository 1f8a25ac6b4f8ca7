// oidc-provider ships no type declarations; test/server/oidcWorld.ts types what it uses.
declare module 'oidc-provider';
