/** The HTML shell and the security headers of the browser dashboard. */
import type { ServerResponse } from 'node:http';

/**
 * Scripts only from this origin, styles adopted by the bundle as constructable stylesheets
 * (no 'unsafe-inline' needed), fetch/EventSource only to this origin, never framed.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>MCP Lens</title>
<link rel="icon" href="data:,">
<script src="/dashboard.js" defer></script>
</head>
<body></body>
</html>
`;

export function securityHeaders(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cache-Control', 'no-store');
}

/** A small plain-text answer that carries no data. */
export function plain(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  securityHeaders(res);
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...extra });
  res.end(text);
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  securityHeaders(res);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body ?? null));
}
