import { parseArgs } from 'node:util';

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
        business: { type: 'string' },
        plan: { type: 'string' },
        'api-plan': { type: 'string' },
        'client-id': { type: 'string' },
        'key-id': { type: 'string' },
        scopes: { type: 'string' },
        mode: { type: 'string' },
        name: { type: 'string' },
        url: { type: 'string' },
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
