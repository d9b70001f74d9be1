/**
 * Work a running server does by itself on its database (periodic jobs, outbox workers, the sync
 * loops, the backup schedule). A restore closes the database and opens another file in its place:
 * everything here is paused before and resumed after, so no pass ever meets a closed database.
 */
export interface BackgroundWork {
  /** Starts nothing new and waits for the work under way; what falls due meanwhile waits for `resume()`. */
  pause(): Promise<void>;
  /** Carries on, on the database open now. */
  resume(): void;
  stop(): Promise<void>;
}

/** Work that can only stop: paused by stopping it, resumed by starting it again (on the current database). */
export function restartable(start: () => { stop(): Promise<void> }): BackgroundWork {
  let current: { stop(): Promise<void> } | undefined = start();
  const stop = async () => {
    const was = current;
    current = undefined;
    await was?.stop();
  };
  return {
    pause: stop,
    resume: () => {
      current ??= start();
    },
    stop,
  };
}

/** Several pieces of background work as one: the one place a restore pauses and a shutdown stops. */
export function allOf(works: BackgroundWork[]): BackgroundWork {
  return {
    pause: async () => {
      await Promise.all(works.map((work) => work.pause()));
    },
    resume: () => {
      for (const work of works) work.resume();
    },
    stop: async () => {
      await Promise.all(works.map((work) => work.stop()));
    },
  };
}
