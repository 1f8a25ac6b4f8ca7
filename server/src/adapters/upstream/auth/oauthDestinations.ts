/**
 * Where the OAuth requests MCP Lens makes for one remote server (discovery, metadata,
 * registration, token) may go. An approved server chooses what its 401 and its metadata say, so
 * without a rule it could point MCP Lens at any address it can reach — a cloud's metadata service
 * (169.254.169.254), another local port — and have it fetch there in the background (issue 31).
 *
 * A request may go:
 *  - to the server's own origin (the URL the user approved), whatever its scheme;
 *  - elsewhere only over https (endpoints the server's metadata names, and the well-known
 *    documents the SDK derives from them);
 *  - to a loopback address only when the server itself is on loopback (a local server and its
 *    local authorization server), over http or https;
 *  - never to a link-local address (169.254.0.0/16, fe80::/10), a cloud metadata service
 *    (169.254.169.254, fd00:ec2::254, 100.100.100.200, metadata.google.internal …) or an address
 *    that is no server's (0.0.0.0, ::, multicast) — the server's own origin included.
 * Names are judged by the addresses they resolve to, at the moment of connecting: the connection
 * is made to the address that was checked (the `lookup` the request is given), so a name cannot
 * resolve to a good address for the check and a bad one for the connection.
 *
 * Every refusal is remembered (the address, never a query) so the server's status can name it.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { addressKind, hostKind, type AddressKind } from './oauthAddresses';

/** Refused addresses remembered for the status (the first ones; later repeats add nothing). */
const MAX_REMEMBERED = 5;

/** Why an address is refused, in words. */
const WHY: Record<Exclude<AddressKind, 'other'>, string> = {
  loopback: 'a loopback address, and the server is not on loopback',
  'link-local': 'a link-local address',
  metadata: "a cloud provider's metadata service",
  'not a server': 'an address that is no server',
};

/** An OAuth request refused for where it would go. */
export class OAuthDestinationError extends Error {
  constructor(
    readonly server: string,
    readonly address: string,
    readonly why: string,
  ) {
    super(`${server}: signing in stopped: MCP Lens does not send OAuth requests to ${address}: ${why}`);
    this.name = 'OAuthDestinationError';
  }
}

/** How a name is resolved (dns.lookup with `all`; a test may answer for it). */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

export class OAuthDestinations {
  private readonly origin: string;
  private readonly onLoopback: boolean;
  /** Refused addresses with the reason, for the server's status. */
  readonly refused: string[] = [];

  constructor(
    private readonly server: string,
    serverUrl: string,
    private readonly resolve: Resolve = systemResolve,
  ) {
    const url = new URL(serverUrl);
    this.origin = url.origin;
    this.onLoopback = hostKind(url.hostname) === 'loopback';
  }

  /** Throws an OAuthDestinationError when `url` may not be asked (by its text: scheme, literal address, known names). */
  check(url: URL): void {
    const own = url.origin === this.origin;
    if (url.protocol !== 'https:' && url.protocol !== 'http:') this.refuse(url, 'not an http or https address');
    const kind = hostKind(url.hostname);
    if (kind && kind !== 'other' && !(kind === 'loopback' && (own || this.onLoopback))) this.refuse(url, WHY[kind]);
    if (url.protocol === 'http:' && !own && !(kind === 'loopback' && this.onLoopback))
      this.refuse(url, 'not https, and not the server itself');
  }

  /**
   * The `lookup` for a connection to `url` (already `check`ed): resolves the name and refuses it
   * (the connection fails with the OAuthDestinationError) unless every address it resolves to may be asked.
   */
  lookupFor(url: URL): LookupFunction {
    const own = url.origin === this.origin;
    return (hostname, options, callback) => {
      this.resolve(hostname).then(
        (addresses) => {
          for (const { address } of addresses) {
            const kind = addressKind(address);
            if (kind === 'other' || (kind === 'loopback' && (own || this.onLoopback))) continue;
            try {
              this.refuse(url, `it resolves to ${address}, ${WHY[kind]}`);
            } catch (error) {
              return callback(error as NodeJS.ErrnoException, '', 0);
            }
          }
          const usable = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
          if (usable.length === 0) return callback(notFound(hostname), '', 0);
          if (options.all) return callback(null, usable);
          callback(null, usable[0]!.address, usable[0]!.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, '', 0),
      );
    };
  }

  private refuse(url: URL, why: string): never {
    const address = `${url.origin}${url.pathname}`;
    const line = `${address} (${why})`;
    if (!this.refused.includes(line) && this.refused.length < MAX_REMEMBERED) this.refused.push(line);
    throw new OAuthDestinationError(this.server, address, why);
  }
}

function notFound(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  error.code = 'ENOTFOUND';
  return error;
}
