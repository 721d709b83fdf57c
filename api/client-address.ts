import { isIP } from 'node:net';
import type { Context, Next } from 'koa';
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

/**
 * The client's address (`ctx.ip`: the socket's, or with CHASQUI_TRUST_PROXY the proxies' word) fixed once when the
 * request starts. Koa reads it from the socket on first use, and by the time the request log or a limit asks, a body
 * limit or a client that went away may have closed that socket (a 500 `reading 'remoteAddress'`, issue 40).
 */
export function captureClientAddress(ctx: Context, next: Next): Promise<void> {
  ctx.request.ip = ctx.request.ips[0] || ctx.req.socket?.remoteAddress || 'unknown';
  return next();
}
