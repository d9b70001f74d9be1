import { useState } from 'react';

export interface Submission<K extends string = never> {
  busy: boolean;
  /** Which write is running, when the form has several (each button spins for its own). */
  running: K | undefined;
  /** The last failure, kept until the next attempt so fields can show what the server refused. */
  error: unknown;
  setError(error: unknown): void;
  /** Runs the write once: busy while it runs, its failure kept in `error` instead of thrown. */
  run(write: () => Promise<void>, key?: K): Promise<void>;
}

export function useSubmit<K extends string = never>(): Submission<K> {
  const [running, setRunning] = useState<{ key?: K }>();
  const [error, setError] = useState<unknown>();
  const run = async (write: () => Promise<void>, key?: K) => {
    setRunning({ key });
    setError(undefined);
    try {
      await write();
    } catch (failure) {
      setError(failure);
    } finally {
      setRunning(undefined);
    }
  };
  return { busy: running !== undefined, running: running?.key, error, setError, run };
}
