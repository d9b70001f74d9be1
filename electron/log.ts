import path from 'node:path';
import { rotatingFile } from '../server/lib/rotating-file';

export type Log = (message: string) => void;

/** The shell's log in userData/logs, rotated: the only place a packaged app's problems can be read later. */
export function fileLog(folder: string): Log {
  const file = rotatingFile(path.join(folder, 'shopdesk.log'));
  return (message) => file.write(`${new Date().toISOString()} ${message}\n`);
}
