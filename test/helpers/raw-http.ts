import http from 'node:http';
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

/**
 * One request over node:http, for the headers fetch will not let a test set (Host, Sec-Fetch-*), or
 * from another loopback address (`localAddress: '127.0.0.2'`) to look like another computer.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
  options: { localAddress?: string } = {},
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers,
        setHost: !('host' in headers),
        ...(options.localAddress && { localAddress: options.localAddress }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * One HTTP/1.1 connection written piece by piece: a body sent in parts, an answer read before the body
 * ends, and the next request on the same socket. Answers must carry Content-Length.
 */
export class RawConnection {
  private buffered = Buffer.alloc(0);
  private waiter: (() => void) | undefined;
  private ended = false;
  /** Why the connection ended (null: the server closed it cleanly), once it has. */
  error: Error | null = null;
  readonly closed: Promise<void>;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.waiter?.();
    });
    socket.on('error', (error) => {
      this.error = error;
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.ended = true;
        this.waiter?.();
        resolve();
      }),
    );
  }

  static open(baseUrl: string): Promise<RawConnection> {
    const url = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname);
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Resolves once the bytes are handed to the kernel; rejects when the connection is gone. */
  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.ended) reject(this.error ?? new Error('connection closed'));
      else this.socket.write(data, (error) => (error ? reject(error) : resolve()));
    });
  }

  /** The next whole answer on the connection; rejects if the connection ends first. */
  async nextResponse(): Promise<RawResponse> {
    for (;;) {
      const response = this.takeResponse();
      if (response) return response;
      if (this.ended) throw this.error ?? new Error('connection closed before a whole answer');
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
      this.waiter = undefined;
    }
  }

  close(): void {
    this.socket.destroy();
  }

  private takeResponse(): RawResponse | undefined {
    const headEnd = this.buffered.indexOf('\r\n\r\n');
    if (headEnd < 0) return undefined;
    const [statusLine = '', ...lines] = this.buffered.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers: http.IncomingHttpHeaders = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffered.length < headEnd + 4 + length) return undefined;
    const text = this.buffered.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
    this.buffered = this.buffered.subarray(headEnd + 4 + length);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: Number(statusLine.split(' ')[1]), headers, text, json };
  }
}
