import http from 'node:http';
import https from 'node:https';
import { guardedLookup, portOf, type TargetPolicy, TargetRefused, urlRefusal } from '../lib/webhook-target';

export interface PostAnswer {
  status: number;
  /** The start of the answer's body, at most the requested number of bytes, as UTF-8 text. */
  bodyPrefix: string;
}

/**
 * POSTs a body to a webhook URL without following redirects, to an address the policy allows (an
 * IP literal and localhost are checked here, a name when it resolves), and reads at most `maxBodyBytes` of the answer.
 */
export function postToTarget(
  target: string,
  options: {
    headers: Record<string, string>;
    body: string;
    signal: AbortSignal;
    policy: TargetPolicy;
    maxBodyBytes: number;
  },
): Promise<PostAnswer> {
  const url = new URL(target);
  const port = portOf(url);
  const reason = urlRefusal(url, options.policy);
  if (reason) return Promise.reject(new TargetRefused(reason));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
        signal: options.signal,
        lookup: guardedLookup(port, options.policy),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          response.destroy();
          resolve({
            status: response.statusCode ?? 0,
            bodyPrefix: new TextDecoder().decode(Buffer.concat(chunks).subarray(0, options.maxBodyBytes)),
          });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= options.maxBodyBytes) finish();
        });
        response.on('end', finish);
        // The status decides the outcome; a body cut short still shows what arrived.
        response.on('error', finish);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
