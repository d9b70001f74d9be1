import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ToServer } from './protocol';
import { QuitSequence, type StopOutcome, stopServerProcess } from './quit-sequence';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function fakeServer() {
  const sent: ToServer[] = [];
  const state = { killed: false };
  let exit: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => {
    exit = resolve;
  });
  const handle = {
    send: (message: ToServer) => sent.push(message),
    kill: () => {
      state.killed = true;
    },
  };
  return { sent, state, exited, handle, exit: (code: number) => exit(code) };
}

describe('stopServerProcess', () => {
  it('sends shutdown and waits for the server to exit', async () => {
    const server = fakeServer();
    const outcome = stopServerProcess(server.handle, server.exited, 5_000);
    expect(server.sent).toEqual([{ type: 'shutdown' }]);
    await vi.advanceTimersByTimeAsync(4_000);
    server.exit(0);
    expect(await outcome).toBe('clean');
    expect(server.state.killed).toBe(false);
  });

  it('kills a server that does not exit in time', async () => {
    const server = fakeServer();
    const outcome = stopServerProcess(server.handle, server.exited, 5_000);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.state.killed).toBe(true);
    server.exit(143);
    expect(await outcome).toBe('killed');
  });
});

function sequence(stopServer: () => Promise<StopOutcome>) {
  const steps: string[] = [];
  const quit = new QuitSequence({
    beforeServerStops: () => steps.push('stop watchers'),
    stopServer: async () => {
      steps.push('stop server');
      const outcome = await stopServer();
      steps.push('server down');
      return outcome;
    },
    exit: () => steps.push('exit'),
    log: () => {},
  });
  return { quit, steps };
}

describe('QuitSequence', () => {
  it('holds the quit until the server is down, then exits once', async () => {
    let release: () => void = () => {};
    const { quit, steps } = sequence(
      () =>
        new Promise((resolve) => {
          release = () => resolve('clean');
        }),
    );
    expect(quit.interceptQuit()).toBe(true);
    expect(quit.interceptQuit()).toBe(true);
    expect(steps).toEqual(['stop watchers', 'stop server']);
    release();
    await vi.waitFor(() => expect(steps).toEqual(['stop watchers', 'stop server', 'server down', 'exit']));
    // The app's own quit after that goes through.
    expect(quit.interceptQuit()).toBe(false);
  });

  it('ends the way the first caller asked (an update install) after the server stopped', async () => {
    const { quit, steps } = sequence(async () => 'clean');
    await quit.run(() => steps.push('install update'));
    quit.interceptQuit();
    expect(steps).toEqual(['stop watchers', 'stop server', 'server down', 'install update']);
  });
});
