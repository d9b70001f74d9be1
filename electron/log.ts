import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export type Log = (message: string) => void;

/** A plain append-only log in userData/logs: the only place a packaged app's problems can be read later. */
export function fileLog(folder: string): Log {
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'shopdesk.log');
  return (message) => {
    const line = `${new Date().toISOString()} ${message}\n`;
    try {
      appendFileSync(file, line);
    } catch {
      process.stderr.write(line);
    }
  };
}
