import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { TlsOption } from './http/tls';

export const DEFAULT_DATA_DIR = './data';
export const DEFAULT_PORT = 4300;
export const DEFAULT_HOST = '127.0.0.1';

export class UsageError extends Error {}

export function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        'data-dir': { type: 'string', default: DEFAULT_DATA_DIR },
        port: { type: 'string' },
        host: { type: 'string' },
        'allowed-host': { type: 'string', multiple: true },
        'hub-database-url': { type: 'string' },
        business: { type: 'string' },
        plan: { type: 'string' },
        'api-plan': { type: 'string' },
        'client-id': { type: 'string' },
        'key-id': { type: 'string' },
        scopes: { type: 'string' },
        mode: { type: 'string' },
        name: { type: 'string' },
        url: { type: 'string' },
        hub: { type: 'string' },
        code: { type: 'string' },
        fingerprint: { type: 'string' },
        'admin-token-file': { type: 'string' },
        tls: { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'insecure-http': { type: 'boolean', default: false },
        'dry-run': { type: 'boolean', default: false },
        'on-match': { type: 'string' },
        'send-events': { type: 'boolean', default: false },
        columns: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        format: { type: 'string' },
        records: { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function parsePort(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0 to 65535, not ${value}`);
  return port;
}

/** `--tls generate`, or `--tls-cert FILE --tls-key FILE` (PEM) for the owner's own certificate. */
export function parseTls(values: {
  tls?: string;
  'tls-cert'?: string;
  'tls-key'?: string;
}): TlsOption | undefined {
  const cert = values['tls-cert'];
  const key = values['tls-key'];
  if (values.tls !== undefined && values.tls !== 'generate')
    throw new UsageError('--tls takes generate (or give --tls-cert and --tls-key)');
  if (values.tls && (cert || key))
    throw new UsageError('--tls generate and --tls-cert/--tls-key exclude each other');
  if (values.tls) return 'generate';
  if (!cert && !key) return undefined;
  if (!cert || !key) throw new UsageError('--tls-cert and --tls-key go together');
  try {
    return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
  } catch (error) {
    throw new UsageError(`Cannot read the certificate or its key: ${(error as Error).message}`);
  }
}
