import { networkInterfaces } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../lib/errors';

const ALWAYS_ALLOWED = ['localhost', '127.0.0.1', '::1'];
const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/** `example.com:4300` → `example.com`, `[::1]:4300` → `::1`; lower case, no trailing dot. */
export function hostnameOf(hostHeader: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d*)?$/.exec(hostHeader);
  const name = bracketed ? bracketed[1]! : hostHeader.replace(/:\d*$/, '');
  return name.toLowerCase().replace(/\.$/, '');
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

/**
 * The names a browser may use to reach this server: loopback, the address it listens on (every
 * interface's address when that is a wildcard) and the names its operator configured.
 */
export function allowedHostnames(listenHost: string, configured: readonly string[] = []): Set<string> {
  const listen = listenHost.replace(/^\[|\]$/g, '').toLowerCase();
  const names = [...ALWAYS_ALLOWED, ...configured.map(hostnameOf)];
  if (WILDCARDS.has(listen)) names.push(...interfaceAddresses());
  else names.push(listen);
  return new Set(names.map((name) => name.toLowerCase()));
}

/**
 * DNS rebinding defence: a page on attacker.example whose name later resolves to 127.0.0.1 sends
 * `Host: attacker.example`, so any Host this server is not known by is refused before routing.
 */
export function registerHostCheck(app: FastifyInstance, allowed: ReadonlySet<string>) {
  app.addHook('onRequest', async (request) => {
    const host = request.headers.host ?? '';
    const name = hostnameOf(host);
    if (!allowed.has(name)) {
      throw new ApiError(
        400,
        'host_not_allowed',
        `This server does not answer to the host name "${host}". Use http://127.0.0.1 or a name it was configured with.`,
      );
    }
  });
}
