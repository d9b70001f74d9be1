import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * Where a webhook may be sent (SSRF defence). Loopback, private, link-local (169.254.169.254, the
 * cloud metadata address), carrier-grade NAT, unspecified and multicast addresses reach the owner's
 * machine and network, not the internet: they need the owner's permission (allow_local_webhooks),
 * since local integrations are a real use. This server's own port is never a target.
 */
export interface TargetPolicy {
  allowLocal: boolean;
  /** The port this server listens on; with a local address it is Shopdesk itself. */
  ownPort: number | null;
}

const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv6');
}

const thisMachine = new BlockList();
thisMachine.addSubnet('127.0.0.0', 8, 'ipv4');
thisMachine.addAddress('0.0.0.0', 'ipv4');
thisMachine.addAddress('::1', 'ipv6');
thisMachine.addAddress('::', 'ipv6');

/** `::ffff:127.0.0.1` is 127.0.0.1 to the network stack, so it is judged as that. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function isPublicAddress(address: string): boolean {
  const { address: plain, family } = unmapped(address);
  return !nonPublic.check(plain, family);
}

function isThisMachine(address: string): boolean {
  const { address: plain, family } = unmapped(address);
  if (thisMachine.check(plain, family)) return true;
  return Object.values(networkInterfaces()).some((list) => (list ?? []).some((i) => i.address === plain));
}

export class TargetRefused extends Error {
  override name = 'TargetRefused';
}

/** Why `address` on `port` may not be a target under `policy` ("is …"), or null when it may. */
export function refusal(address: string, port: number, policy: TargetPolicy): string | null {
  if (port === policy.ownPort && isThisMachine(address)) {
    return 'is this Shopdesk server, which webhooks cannot be sent to';
  }
  if (!policy.allowLocal && !isPublicAddress(address)) {
    return 'is a loopback, private or link-local address; the owner can allow local webhook targets under Settings > Webhooks';
  }
  return null;
}

export function portOf(url: URL): number {
  return Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
}

/** The URL's host as an address when it is an IP literal (`[::1]` → `::1`), else null. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

/**
 * Why an endpoint URL is refused when it is registered, or null. Only what the URL itself says can
 * be judged here (an IP literal, localhost); names are judged again each time they resolve.
 */
export function urlRefusal(target: string, policy: TargetPolicy): string | null {
  const url = new URL(target);
  const host = url.hostname.toLowerCase();
  const address =
    literalAddress(url) ?? (host === 'localhost' || host.endsWith('.localhost') ? '127.0.0.1' : null);
  if (!address) return null;
  const reason = refusal(address, portOf(url), policy);
  return reason && `${url.host} ${reason}`;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A DNS lookup for http.request that checks every address a name resolves to, at connection time:
 * checking before the request would let a name resolve to a public address for the check and to
 * 127.0.0.1 for the connection (DNS rebinding).
 */
export function guardedLookup(port: number, policy: TargetPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const reason = refusal(address, port, policy);
        if (reason)
          return callback(new TargetRefused(`${hostname} resolves to ${address}, which ${reason}`), []);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first) return callback(new TargetRefused(`${hostname} has no address`), []);
      callback(null, first.address, first.family);
    });
  };
}
