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
  /** How names are resolved (the system resolver unless a test stands in for public DNS). */
  lookup?: HostLookup;
}

/** node:dns lookup with `all: true`, the shape http.request's own lookup option calls. */
export type HostLookup = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemLookup: HostLookup = (hostname, options, callback) => dnsLookup(hostname, options, callback);

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
// Teredo hides its IPv4 address (XORed), so it is refused rather than decoded; the other
// IPv6 forms that carry an IPv4 address are judged by that address (embeddedIpv4).
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
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

/** The eight 16-bit groups of an IPv6 address (`::`, a dotted IPv4 tail and a zone allowed). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const split = (part: string) => (part ? part.split(':') : []);
  const groups =
    tail === undefined
      ? split(head)
      : [
          ...split(head),
          ...Array<string>(8 - split(head).length - split(tail).length).fill('0'),
          ...split(tail),
        ];
  return groups.map((group) => Number.parseInt(group, 16));
}

/**
 * The IPv4 address an IPv6 address stands for, where the network stack or a translator on the way
 * delivers to it: IPv4-mapped (`::ffff:127.0.0.1`), IPv4-compatible (`::127.0.0.1`), NAT64's
 * well-known prefix (`64:ff9b::7f00:1`) and 6to4 (`2002:7f00:1::`).
 */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  const ipv4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  if (zeros(0, 5) && g[5] === 0xffff) return ipv4(g[6]!, g[7]!);
  // ::1 and :: stay IPv6 (loopback, unspecified); ::1.0.0.0 and above are IPv4-compatible.
  if (zeros(0, 6) && g[6] !== 0) return ipv4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return ipv4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return ipv4(g[1]!, g[2]!);
  return null;
}

/** An address as the network would reach it: an IPv6 form of an IPv4 address is that IPv4 address. */
function asReached(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  if (isIP(address) !== 6) return { address, family: 'ipv4' };
  const ipv4 = embeddedIpv4(address);
  return ipv4 ? { address: ipv4, family: 'ipv4' } : { address, family: 'ipv6' };
}

export function isPublicAddress(address: string): boolean {
  const { address: plain, family } = asReached(address);
  return !nonPublic.check(plain, family);
}

function isThisMachine(address: string): boolean {
  const { address: plain, family } = asReached(address);
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

/**
 * The address a URL's host names without asking DNS: an IP literal (`[::1]` → `::1`), or a name
 * that always means this machine (`localhost`, `*.localhost`, either with the final dot). Else null.
 */
export function knownAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return host;
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') ? '127.0.0.1' : null;
}

/** Why `url` may not be a target judging by what it says itself, or null (a name is judged when it resolves). */
export function urlRefusal(url: URL, policy: TargetPolicy): string | null {
  const address = knownAddress(url);
  const reason = address && refusal(address, portOf(url), policy);
  return reason && `${url.host} ${reason}`;
}

/** Why a name whose addresses are these may not be a target, or null: any one refused refuses it. */
function resolvedRefusal(
  hostname: string,
  addresses: LookupAddress[],
  port: number,
  policy: TargetPolicy,
): string | null {
  for (const { address } of addresses) {
    const reason = refusal(address, port, policy);
    if (reason) return `${hostname} resolves to ${address}, which ${reason}`;
  }
  return null;
}

/** How long registering an endpoint waits for its name to resolve before leaving the check to delivery. */
export const REGISTRATION_LOOKUP_MS = 3000;

/**
 * Why an endpoint URL is refused when it is registered, or null: the rule deliveries apply, to the
 * URL and to the addresses its name resolves to now. A name that does not resolve (offline, a
 * receiver not set up yet) is accepted, as is one whose lookup takes too long: each delivery
 * checks again when it connects.
 */
export async function registrationRefusal(target: string, policy: TargetPolicy): Promise<string | null> {
  const url = new URL(target);
  if (knownAddress(url)) return urlRefusal(url, policy);
  const hostname = url.hostname;
  const addresses = await new Promise<LookupAddress[]>((resolve) => {
    const giveUp = setTimeout(() => resolve([]), REGISTRATION_LOOKUP_MS);
    (policy.lookup ?? systemLookup)(hostname, { all: true }, (error, found) => {
      clearTimeout(giveUp);
      resolve(error ? [] : found);
    });
  });
  return resolvedRefusal(hostname, addresses, portOf(url), policy);
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
    (policy.lookup ?? systemLookup)(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const reason = resolvedRefusal(hostname, addresses, port, policy);
      if (reason) return callback(new TargetRefused(reason), []);
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first) return callback(new TargetRefused(`${hostname} has no address`), []);
      callback(null, first.address, first.family);
    });
  };
}
