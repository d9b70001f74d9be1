import { useState } from 'react';

export interface Submission {
  busy: boolean;
  /** The last failure, kept until the next attempt so fields can show what the server refused. */
  error: unknown;
  setError(error: unknown): void;
  /** Runs the write once: busy while it runs, its failure kept in `error` instead of thrown. */
  run(write: () => Promise<void>): Promise<void>;
}

export function useSubmit(): Submission {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async (write: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await write();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
