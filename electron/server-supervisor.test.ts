import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ToServer } from './protocol';
import { type ChildEvents, ServerSupervisor, type SupervisorEvents } from './server-supervisor';

interface FakeChild {
  events: ChildEvents;
  sent: ToServer[];
  killed: boolean;
}

function harness(options: ConstructorParameters<typeof ServerSupervisor>[2] = {}) {
  const children: FakeChild[] = [];
  const log: string[] = [];
  const events: SupervisorEvents = {
    ready: (info) => log.push(`ready ${info.url}`),
    crashed: (info) => log.push(`crashed ${info.exitCode} restart in ${info.restartInMs} (#${info.attempt})`),
    gaveUp: (info) => log.push(`gave up after ${info.crashesInLastMinute}`),
    startupFailed: (info) => log.push(`startup failed ${info.reason}`),
  };
  const supervisor = new ServerSupervisor(
    (childEvents) => {
      const child: FakeChild = { events: childEvents, sent: [], killed: false };
      children.push(child);
      return {
        send: (message) => child.sent.push(message),
        kill: () => {
          child.killed = true;
        },
      };
    },
    events,
    options,
  );
  const latest = () => children.at(-1)!;
  const readyUp = (port: number) =>
    latest().events.onMessage({ type: 'ready', url: `http://127.0.0.1:${port}`, signInUrl: 'x' });
  return { supervisor, children, log, latest, readyUp };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ServerSupervisor', () => {
  it('reports ready and delivers messages only to a running server', () => {
    const { supervisor, latest, readyUp, log } = harness();
    supervisor.start();
    supervisor.send({ type: 'online', online: false });
    expect(latest().sent).toEqual([]);
    readyUp(5000);
    expect(log).toEqual(['ready http://127.0.0.1:5000']);
    expect(supervisor.state).toBe('running');
    supervisor.send({ type: 'online', online: false });
    expect(latest().sent).toEqual([{ type: 'online', online: false }]);
  });

  it('restarts a crashed server with a growing delay', () => {
    const { supervisor, children, latest, readyUp, log } = harness({ backoffBaseMs: 1_000 });
    supervisor.start();
    readyUp(5000);
    latest().events.onExit(139);
    expect(log.at(-1)).toBe('crashed 139 restart in 1000 (#1)');
    expect(supervisor.state).toBe('restarting');
    vi.advanceTimersByTime(999);
    expect(children).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(children).toHaveLength(2);

    latest().events.onExit(1);
    expect(log.at(-1)).toBe('crashed 1 restart in 2000 (#2)');
    vi.advanceTimersByTime(2_000);
    expect(children).toHaveLength(3);
    readyUp(5001);
    expect(log.at(-1)).toBe('ready http://127.0.0.1:5001');
  });

  it('gives up after too many crashes in a minute', () => {
    const { supervisor, children, latest, log } = harness({ backoffBaseMs: 100, maxRestartsPerMinute: 3 });
    supervisor.start();
    for (let crash = 0; crash < 3; crash += 1) {
      latest().events.onExit(1);
      vi.advanceTimersByTime(1_000);
    }
    expect(children).toHaveLength(4);
    latest().events.onExit(1);
    expect(log.at(-1)).toBe('gave up after 4');
    expect(supervisor.state).toBe('failed');
    vi.advanceTimersByTime(60_000);
    expect(children).toHaveLength(4);
  });

  it('forgets crashes older than a minute', () => {
    const { supervisor, latest, log } = harness({ backoffBaseMs: 100, maxRestartsPerMinute: 2 });
    supervisor.start();
    latest().events.onExit(1);
    vi.advanceTimersByTime(100);
    latest().events.onExit(1);
    vi.advanceTimersByTime(61_000);
    latest().events.onExit(1);
    expect(log.at(-1)).toBe('crashed 1 restart in 100 (#1)');
  });

  it('does not restart a server that could not start at all', () => {
    const { supervisor, children, latest, log } = harness();
    supervisor.start();
    latest().events.onMessage({
      type: 'startup-failed',
      reason: 'port_in_use',
      port: 4400,
      message: 'taken',
    });
    latest().events.onExit(1);
    expect(log).toEqual(['startup failed port_in_use']);
    vi.advanceTimersByTime(60_000);
    expect(children).toHaveLength(1);
  });

  it('stops without restarting: shutdown message, then the exit', async () => {
    const { supervisor, children, latest, readyUp, log } = harness();
    supervisor.start();
    readyUp(5000);
    const stopped = supervisor.stop();
    expect(latest().sent).toEqual([{ type: 'shutdown' }]);
    latest().events.onExit(0);
    expect(await stopped).toBe('clean');
    expect(log).toEqual(['ready http://127.0.0.1:5000']);
    expect(children).toHaveLength(1);
    expect(supervisor.state).toBe('stopped');
  });

  it('cancels a pending restart when stopped', async () => {
    const { supervisor, children, latest } = harness();
    supervisor.start();
    latest().events.onExit(1);
    expect(await supervisor.stop()).toBe('not-running');
    vi.advanceTimersByTime(60_000);
    expect(children).toHaveLength(1);
  });
});
