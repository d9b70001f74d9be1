import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { bundledArgs } from '../helpers/process-bundles';

const root = path.resolve(import.meta.dirname, '../..');
const execFileAsync = promisify(execFile);

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run cli` without npm: the CLI in a child process of its own, as a second process on the folder. */
export async function cli(dataDir: string, ...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await execFileAsync(
      process.execPath,
      bundledArgs('cli', ...args, '--data-dir', dataDir),
      { cwd: root },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

export interface HeadlessServer {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<Outcome>;
  /** Resolves with the URL once the server prints it. */
  url: Promise<string>;
}

/** Headless mode (server/serve.ts) in a child process of its own, on port 0; `env` adds variables. */
export function serve(dataDir: string, env: Record<string, string> = {}): HeadlessServer {
  const child = spawn(process.execPath, bundledArgs('serve', '--data-dir', dataDir, '--port', '0'), {
    cwd: root,
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<Outcome>((resolve) =>
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr })),
  );
  const url = new Promise<string>((resolve, reject) => {
    const look = () => {
      const found = /running at (\S+)/.exec(stdout)?.[1];
      if (found) resolve(found);
    };
    child.stdout.on('data', look);
    void exited.then((outcome) => reject(new Error(`exited before serving: ${outcome.stderr}`)));
  });
  url.catch(() => undefined);
  return { child, output: () => stdout + stderr, exited, url };
}
