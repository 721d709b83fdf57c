import { BlockList, isIP } from 'node:net';
import { promises as dns } from 'node:dns';

/**
 * Outbound targets that integrators choose (webhook URLs, an own OSE's address) must be public https endpoints:
 * otherwise chasqui could be used to reach its own network. The check resolves the name and rejects it when any
 * address is non-public, so call it again right before connecting (delivery time), not only when configuring.
 */

const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/** IPv6 forms that carry an IPv4 address: mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96), 6to4 (2002::/16). */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(lower);
  if (sixToFour) {
    const hi = parseInt(sixToFour[1], 16);
    const lo = parseInt(sixToFour[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== null) return isPublicAddress(v4);
    return !NON_PUBLIC.check(address, 'ipv6');
  }
  return !NON_PUBLIC.check(address, 'ipv4');
}

export type Lookup = (hostname: string) => Promise<string[]>;

const systemLookup: Lookup = async (hostname) => (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export type TargetCheck =
  | { ok: true; url: URL; addresses: string[] }
  | { ok: false; reason: 'invalid_url' | 'not_https' | 'credentials_in_url' | 'unresolvable' | 'not_public'; message: string };

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
  if (url.username || url.password) return { ok: false, reason: 'credentials_in_url', message: 'must not carry a user or password' };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
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
      const via = blocked === host ? '' : ` (${host} resolves to ${blocked})`;
      return { ok: false, reason: 'not_public', message: `must point to a public address, not a local or private one${via}` };
    }
  }
  return { ok: true, url, addresses };
}
