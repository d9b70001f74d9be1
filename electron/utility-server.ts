import { databaseKeyFromEnvironment } from '../server/db/key-source';
import { keepHeapNearLive } from '../server/lib/heap-growth';
import { type ParentChannel, parseServerProcessArgs, runServerProcess } from './server-process';

/**
 * Electron's utility process talks through process.parentPort; the Node child process that stands in for it
 * in tests talks through process.send. Both carry the same messages.
 */
function parentChannel(): ParentChannel {
  const port = process.parentPort;
  if (port) {
    return {
      post: (message) => port.postMessage(message),
      onMessage: (listener) => port.on('message', (event) => listener(event.data)),
    };
  }
  const send = process.send?.bind(process);
  if (!send) throw new Error('utility-server must run as a child process with an IPC channel');
  return {
    post: (message) => send(message),
    onMessage: (listener) => process.on('message', listener),
  };
}

keepHeapNearLive();
// The key comes through the environment, never the command line that `ps` shows; it is dropped from the
// environment once read.
const key = databaseKeyFromEnvironment(process.env);
delete process.env.SHOPDESK_DB_KEY;
runServerProcess(parentChannel(), { ...parseServerProcessArgs(process.argv.slice(2)), key }, (code) =>
  process.exit(code),
);
