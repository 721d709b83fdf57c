import { isIP, type LookupFunction } from 'node:net';

/**
 * A DNS lookup that answers only the addresses a target check approved (core/net-guard.ts), so a name that resolves
 * to a public address when checked and to an internal one a moment later (DNS rebinding) is never connected to.
 * Given to got as `dnsLookup` by the webhook deliveries and the calls to a company's own OSE.
 */
export function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, entries);
    else callback(null, entries[0].address, entries[0].family);
  }) as LookupFunction;
}
