import { type ChildProcess, execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { bundledArgs } from './process-bundles';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
/** Every `serve` child started here that has not exited, for `killServedProcesses`. */
const running = new Set<ChildProcess>();

/** The CLI on a folder with no server running on it (initialising, joining), `--json` answers. */
export async function cliJson<T>(dataDir: string, ...args: string[]): Promise<T> {
  const { stdout } = await run(
    process.execPath,
    bundledArgs('cli', ...args, '--json', '--data-dir', dataDir),
    { cwd: root },
  );
  return JSON.parse(stdout) as T;
}

export interface ServedProcess {
  url: string;
  child: ChildProcess;
  /** SIGTERM, resolved once the process has exited. */
  stop(): Promise<void>;
}

/** `serve` in a child process on `dataDir`; resolves with its URL once it listens. */
export function serveProcess(dataDir: string, port = 0): Promise<ServedProcess> {
  const child = spawn(process.execPath, bundledArgs('serve', '--data-dir', dataDir, '--port', String(port)), {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /running at (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        resolve({
          url,
          child,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

/** For a file's afterAll: what a failed test left running dies with it, not with the worker. */
export function killServedProcesses(): void {
  for (const child of running) child.kill('SIGKILL');
}
