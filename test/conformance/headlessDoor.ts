/**
 * A SignInDoor for tests: instead of a person in a browser, it requests the authorization page
 * and follows its redirects (a consent page that answers with a redirect, as the conformance
 * suite's and a test provider's do), until one lands on the loopback redirect URI, which it then
 * requests too: the sign-in receives the code exactly as it would from a browser.
 */
import type { SignInDoor } from '../../server/src/adapters/upstream/auth/types';

export interface HeadlessDoorOptions {
  /** Answers a page that is not a redirect (a login or consent form); returns the next request. */
  answer?: (page: {
    url: URL;
    status: number;
    body: string;
    cookies: string;
  }) => Promise<{ url: URL; init?: RequestInit } | undefined>;
  /** Called with every authorization URL (tests read its parameters). */
  onAuthorization?: (url: URL) => void;
}

export function headlessDoor(options: HeadlessDoorOptions = {}): SignInDoor {
  return {
    async openAuthorization(_server, url) {
      options.onAuthorization?.(url);
      // Followed in the background, as a browser would: the sign-in waits on the loopback listener.
      void follow(url, options).catch((err: unknown) => process.stderr.write(`headless sign-in: ${String(err)}\n`));
    },
  };
}

async function follow(start: URL, options: HeadlessDoorOptions): Promise<void> {
  const jar = new Map<string, string>();
  let next: { url: URL; init?: RequestInit } | undefined = { url: start };
  for (let hop = 0; next && hop < 20; hop++) {
    const cookies = [...jar.entries()].map(([k, v]) => `${k}=${v}`).join('; ');
    const headers = new Headers(next.init?.headers);
    if (cookies && next.url.origin === start.origin) headers.set('cookie', cookies);
    const response: Response = await fetch(next.url, { ...next.init, headers, redirect: 'manual' });
    for (const c of response.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      if (eq > 0) jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    const location: string | null = response.headers.get('location');
    if (location) {
      await response.body?.cancel();
      next = { url: new URL(location, next.url) };
      continue;
    }
    const body = await response.text();
    next = options.answer
      ? await options.answer({
          url: next.url,
          status: response.status,
          body,
          cookies: [...jar.entries()].map(([k, v]) => `${k}=${v}`).join('; '),
        })
      : undefined;
  }
}

/**
 * Answers an HTML login or consent page the way a person would: submits its first form, with
 * every named input's value and `login`/`password` filled in (the provider's development pages
 * accept any account).
 */
export async function submitFirstForm(page: {
  url: URL;
  body: string;
}): Promise<{ url: URL; init: RequestInit } | undefined> {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(page.body);
  if (!form) return undefined;
  const action = /\baction="([^"]*)"/i.exec(form[1]!)?.[1] ?? page.url.pathname;
  const fields = new URLSearchParams();
  for (const input of form[2]!.matchAll(/<input\b([^>]*)>/gi)) {
    const name = /\bname="([^"]*)"/i.exec(input[1]!)?.[1];
    if (!name) continue;
    const value = /\bvalue="([^"]*)"/i.exec(input[1]!)?.[1];
    fields.set(name, value ?? (name === 'login' ? 'alice' : name === 'password' ? 'any' : ''));
  }
  return {
    url: new URL(action.replace(/&amp;/g, '&'), page.url),
    init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields.toString() },
  };
}
