import { BlockList, isIP } from 'node:net';
import { promises as dns } from 'node:dns';

/**
 * Outbound targets that integrators choose (webhook URLs, an own OSE's address) must be public https endpoints:
 * otherwise chasqui could be used to reach its own network. The check resolves the name and rejects it when any
 * address is non-public, so call it again right before connecting (delivery time), not only when configuring.
 */

/** Each non-public range with what it is: a refusal says which kind of address, never the address itself. */
const NON_PUBLIC_RANGES: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'a "this network" address'],
  ['10.0.0.0', 8, 'ipv4', 'a private address'],
  ['100.64.0.0', 10, 'ipv4', 'a carrier-grade NAT address'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address'],
  ['172.16.0.0', 12, 'ipv4', 'a private address'],
  ['192.0.0.0', 24, 'ipv4', 'an IETF protocol address'],
  ['192.0.2.0', 24, 'ipv4', 'a documentation address'],
  ['192.88.99.0', 24, 'ipv4', 'a 6to4 relay address'],
  ['192.168.0.0', 16, 'ipv4', 'a private address'],
  ['198.18.0.0', 15, 'ipv4', 'a benchmarking address'],
  ['198.51.100.0', 24, 'ipv4', 'a documentation address'],
  ['203.0.113.0', 24, 'ipv4', 'a documentation address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved or broadcast address'],
  ['::', 128, 'ipv6', 'the unspecified address'],
  ['::1', 128, 'ipv6', 'a loopback address'],
  ['100::', 64, 'ipv6', 'a discard address'],
  ['2001:db8::', 32, 'ipv6', 'a documentation address'],
  // Teredo: the IPv4 it reaches is hidden in the address.
  ['2001::', 32, 'ipv6', 'a Teredo address'],
  ['64:ff9b:1::', 48, 'ipv6', 'a local-use NAT64 address'],
  ['fc00::', 7, 'ipv6', 'a unique-local (private) address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['fec0::', 10, 'ipv6', 'a site-local address'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
];
const NON_PUBLIC = new BlockList();
for (const [net, prefix, family] of NON_PUBLIC_RANGES) NON_PUBLIC.addSubnet(net, prefix, family);

/** What kind of non-public address this is ("a loopback address"), judged as isPublicAddress judges it. */
export function addressKind(address: string): string {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  for (const [net, prefix, f, kind] of NON_PUBLIC_RANGES) {
    if (f !== family) continue;
    const one = new BlockList();
    one.addSubnet(net, prefix, f);
    if (one.check(address, f)) return kind;
  }
  const carried = family === 'ipv6' ? embeddedIpv4(address) : null;
  return carried !== null ? addressKind(carried) : 'a non-public address';
}

/** The eight 16-bit groups of an IPv6 address in any spelling (compressed, dotted IPv4 tail); null when it is not one. */
export function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === null ? [] : Array(8 - left.length - right.length).fill('0');
  const groups = [...left, ...fill, ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 address an IPv6 address carries, whatever its spelling: IPv4-compatible (::/96), mapped (::ffff:0:0/96),
 * translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16). Such an address reaches that IPv4 host,
 * so it is judged as that host.
 */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 6)) return v4(g[6], g[7]);
  if (zero(0, 5) && g[5] === 0xffff) return v4(g[6], g[7]);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return v4(g[6], g[7]);
  if (g[0] === 0x2002) return v4(g[1], g[2]);
  return null;
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const carried = embeddedIpv4(address);
    if (carried !== null) return isPublicAddress(carried);
    return !NON_PUBLIC.check(address, 'ipv6');
  }
  return !NON_PUBLIC.check(address, 'ipv4');
}

export type Lookup = (hostname: string) => Promise<string[]>;

const systemLookup: Lookup = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export type TargetCheck =
  | { ok: true; url: URL; addresses: string[] }
  | {
      ok: false;
      reason: 'invalid_url' | 'not_https' | 'credentials_in_url' | 'unresolvable' | 'not_public';
      message: string;
    };

/**
 * Accepts only an absolute https URL (without user:password) whose host, literal or resolved, is public.
 * `allowPrivate` (CHASQUI_WEBHOOK_ALLOW_PRIVATE, local development and tests) skips the address check only.
 */
export async function checkPublicHttpsUrl(
  text: string,
  options: { allowPrivate: boolean; lookup?: Lookup },
): Promise<TargetCheck> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'invalid_url', message: 'is not a valid absolute URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'not_https', message: 'must use https' };
  if (url.username || url.password)
    return { ok: false, reason: 'credentials_in_url', message: 'must not carry a user or password' };
  const host = await checkPublicHost(url.hostname, options);
  return host.ok ? { ok: true, url, addresses: host.addresses } : host;
}

/**
 * The host part of the check, for targets that are not https URLs (a company's own SMTP server): a literal or
 * resolved address that is public, unless `allowPrivate`.
 */
export async function checkPublicHost(
  hostname: string,
  options: { allowPrivate: boolean; lookup?: Lookup },
): Promise<{ ok: true; addresses: string[] } | { ok: false; reason: 'unresolvable' | 'not_public'; message: string }> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) return { ok: false, reason: 'unresolvable', message: `host ${host} does not resolve` };
  }
  if (!options.allowPrivate) {
    const blocked = addresses.find((a) => !isPublicAddress(a));
    if (blocked !== undefined) {
      // Why, without the address: a refusal must not map internal names to internal addresses (issue 32).
      const why = blocked === host ? `it is ${addressKind(blocked)}` : `${host} resolves to ${addressKind(blocked)}`;
      return {
        ok: false,
        reason: 'not_public',
        message: `must point to a public address, not a local or private one (${why})`,
      };
    }
  }
  return { ok: true, addresses };
}
