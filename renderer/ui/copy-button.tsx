import { useState } from 'react';
import { Button } from './button';

/**
 * Copies a text to the clipboard. Browsers refuse the clipboard to plain-http pages other than
 * localhost (a hub opened by its LAN address), so a refusal says to copy by hand instead of failing silently.
 */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'refused'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('refused');
    }
  };
  return (
    <Button size="sm" onClick={copy}>
      {state === 'copied' ? 'Copied' : state === 'refused' ? 'Select and copy it' : label}
    </Button>
  );
}
