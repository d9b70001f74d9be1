import { useState } from 'react';
import { errorMessage } from '../lib/api';
import { useToast } from '../ui';

/**
 * One click-triggered write at a time, named by `key` so only its button spins; a failure is
 * told in a toast, since there is no form to show it in. Resolves to whether the action succeeded.
 */
export function useBusyAction<K extends string>() {
  const toast = useToast();
  const [busy, setBusy] = useState<K>();
  const perform = async (key: K, action: () => Promise<void>): Promise<boolean> => {
    setBusy(key);
    try {
      await action();
      return true;
    } catch (failure) {
      toast.show(errorMessage(failure), 'error');
      return false;
    } finally {
      setBusy(undefined);
    }
  };
  return { busy, perform };
}
