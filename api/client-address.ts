import { isIP } from 'node:net';
import { ipv6Groups } from '../core/net-guard';

/**
 * What a per-address limit counts a client's address as: an IPv4 address itself (an IPv4-mapped IPv6 one as its
 * IPv4), an IPv6 address as its /64, the smallest block a subscriber gets, so one subscriber's 2^64 addresses are one
 * client and not as many new keys.
 */
export function limitKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address)!;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return `${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
