import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { bundledArgs } from '../helpers/process-bundles';

const root = path.resolve(import.meta.dirname, '../..');
/** Generous: a start on a loaded machine loads the bundle and opens the database. */
const START_LIMIT_MS = 180_000;
const STOP_LIMIT_MS = 60_000;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * One install as a real `serve` process on its own folder and a fixed port on 127.0.0.1 (devices
 * keep the hub's address across its restarts), its clock moved by `offsetMs`.
 */
export class Machine {
  readonly url: string;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  /** Writers send requests only while the machine is up; the campaign changes this around faults. */
  up = false;
  starts = 0;

  constructor(
    readonly name: string,
    readonly dir: string,
    readonly port: number,
    readonly offsetMs: number,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      process.execPath,
      bundledArgs('serve', '--data-dir', this.dir, '--port', String(this.port)),
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, SHOPDESK_CLOCK_OFFSET_MS: String(this.offsetMs) },
      },
    );
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const limit = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${this.name} did not start within ${START_LIMIT_MS} ms: ${output.slice(-2000)}`));
      }, START_LIMIT_MS);
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk;
        if (output.includes('running at ')) {
          clearTimeout(limit);
          resolve();
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        output += chunk;
      });
      child.once('exit', (code, signal) => {
        clearTimeout(limit);
        reject(new Error(`${this.name} exited while starting (${code ?? signal}): ${output.slice(-2000)}`));
      });
    });
    // Server logs are not the campaign's output; reading them keeps the pipes from filling.
    child.stdout!.resume();
    child.stderr!.resume();
    this.starts += 1;
    this.up = true;
  }

  /** SIGTERM: the server finishes its in-flight requests and closes its database. */
  async stop(): Promise<void> {
    this.up = false;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const limit = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS);
    child.kill('SIGTERM');
    await this.exited;
    clearTimeout(limit);
  }

  /** kill -9: whatever the process was doing (a sync round, a write) stops mid-way. */
  async kill(): Promise<void> {
    this.up = false;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await this.exited;
  }
}
