/**
 * What kind of place an IP address or a host name is, for deciding where OAuth requests may go
 * (oauthDestinations.ts): loopback, link-local, a cloud provider's metadata service, or an address
 * that is never a server (unspecified, multicast, broadcast). IPv4 written inside IPv6 (mapped,
 * compatible, NAT64) is judged as the IPv4 it carries. Pure.
 */
import { isIPv4, isIPv6 } from 'node:net';

export type AddressKind = 'loopback' | 'link-local' | 'metadata' | 'not a server' | 'other';

/** Host names of cloud metadata services (they resolve to link-local addresses only inside a cloud). */
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** Metadata services at addresses that are not link-local (the link-local ones are refused as such). */
const METADATA_IPV4 = new Set(['100.100.100.200']);
const METADATA_IPV6 = ['fd00:ec2::254'].map((a) => ipv6Bytes(a)!.join(','));

/** What a URL's host text says (a literal address, or a name); `undefined` for a name that must be resolved. */
export function hostKind(hostname: string): AddressKind | undefined {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isIPv4(host) || isIPv6(host)) return addressKind(host);
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (METADATA_HOSTS.has(host)) return 'metadata';
  return undefined;
}

/** What an IP address (as a resolver answers it) is. */
export function addressKind(address: string): AddressKind {
  const v4 = isIPv4(address) ? address.split('.').map(Number) : embeddedIPv4(address);
  if (v4) return ipv4Kind(v4);
  const bytes = ipv6Bytes(address);
  if (!bytes) return 'not a server';
  if (METADATA_IPV6.includes(bytes.join(','))) return 'metadata';
  if (bytes.every((b) => b === 0)) return 'not a server';
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return 'loopback';
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) return 'link-local';
  if (bytes[0] === 0xff) return 'not a server';
  return 'other';
}

function ipv4Kind([a, b, c, d]: number[]): AddressKind {
  const text = `${a}.${b}.${c}.${d}`;
  if (METADATA_IPV4.has(text)) return 'metadata';
  if (a === 169 && b === 254) return text === '169.254.169.254' || text === '169.254.170.2' ? 'metadata' : 'link-local';
  if (a === 127) return 'loopback';
  // 0.0.0.0/8 reaches this host on Linux; multicast, reserved and broadcast are no server's.
  if (a === 0 || a! >= 224) return 'not a server';
  return 'other';
}

/** The IPv4 address an IPv6 address carries (::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b::a.b.c.d), if any. */
function embeddedIPv4(address: string): number[] | undefined {
  const bytes = ipv6Bytes(address);
  if (!bytes) return undefined;
  const head = bytes.slice(0, 12);
  const zero = (from: number, to: number) => head.slice(from, to).every((b) => b === 0);
  const mapped = zero(0, 10) && head[10] === 0xff && head[11] === 0xff;
  // ::a.b.c.d, but not :: or ::1 (unspecified and loopback in their own right).
  const low = bytes.slice(12);
  const compatible = zero(0, 12) && low.slice(0, 3).some((x) => x !== 0);
  const nat64 = head[0] === 0x00 && head[1] === 0x64 && head[2] === 0xff && head[3] === 0x9b && zero(4, 12);
  return mapped || compatible || nat64 ? bytes.slice(12) : undefined;
}

/** An IPv6 address as its 16 bytes (an IPv4 tail written dotted included); undefined if it is not one. */
function ipv6Bytes(address: string): number[] | undefined {
  const text = address.replace(/%.*$/, '');
  if (!isIPv6(text)) return undefined;
  let groups: string[];
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  const body = tail ? text.slice(0, -tail[1]!.length) + '0:0' : text;
  const [left, right] = body.split('::') as [string, string | undefined];
  const l = left ? left.split(':') : [];
  const r = right ? right.split(':') : [];
  if (right === undefined) groups = l;
  else groups = [...l, ...Array<string>(8 - l.length - r.length).fill('0'), ...r];
  const bytes = groups.flatMap((g) => {
    const n = parseInt(g || '0', 16);
    return [n >> 8, n & 0xff];
  });
  if (tail) bytes.splice(12, 4, ...tail[1]!.split('.').map(Number));
  return bytes.length === 16 ? bytes : undefined;
}
