import pg from 'pg';

/** The channel a push notifies on commit, with the business's id as payload. */
export const PUSHED_CHANNEL = 'shopdesk_hub_pushed';
const RECONNECT_MS = 1000;

/**
 * Pushes through any hub process on the database, heard by this one (LISTEN/NOTIFY), so its long
 * polls end at once. One connection of its own, outside the pool: LISTEN needs a session, which a
 * pooler in transaction mode does not keep. While it is down, long polls end at their timeout
 * instead: slower, never wrong, since a pull reads the database.
 */
export function pushWatcher(config: pg.ClientConfig) {
  const listeners = new Set<(accountId: string) => void>();
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = () => {
    const current = new pg.Client({ ...config, application_name: 'shopdesk-hub-listen' });
    client = current;
    current.on('notification', (message) => {
      if (message.payload) for (const listener of listeners) listener(message.payload);
    });
    const lost = () => {
      if (client !== current) return;
      client = undefined;
      current.end().catch(() => {});
      if (listeners.size === 0) return;
      retry = setTimeout(() => {
        retry = undefined;
        connect();
      }, RECONNECT_MS);
      retry.unref();
    };
    current.on('error', lost);
    current.on('end', lost);
    current
      .connect()
      .then(() => current.query(`LISTEN ${PUSHED_CHANNEL}`))
      .catch(lost);
  };

  return (listener: (accountId: string) => void): (() => void) => {
    listeners.add(listener);
    if (!client && !retry) connect();
    return () => {
      listeners.delete(listener);
      if (listeners.size > 0) return;
      clearTimeout(retry);
      retry = undefined;
      const current = client;
      client = undefined;
      current?.end().catch(() => {});
    };
  };
}
