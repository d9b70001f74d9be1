import https from 'node:https';
import tls from 'node:tls';

/**
 * HTTPS to a LAN hub whose certificate no authority signed: the device trusts exactly the
 * certificate whose SHA-256 fingerprint it pinned at pairing. The check runs on the TLS socket
 * before the request is written, so a credential never reaches an impostor.
 */
export function pinnedRequest(
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
  fingerprint: string,
): Promise<{ status: number; text: string }> {
  const agent = new https.Agent({ keepAlive: false });
  agent.createConnection = (options, callback) => {
    const socket = tls.connect({ ...(options as tls.ConnectionOptions), rejectUnauthorized: false });
    socket.once('secureConnect', () => {
      const presented = socket.getPeerCertificate().fingerprint256;
      if (presented !== fingerprint) {
        const error = new Error(
          `The hub presented a certificate (${presented}) other than the one paired (${fingerprint}).`,
        );
        socket.destroy(error);
        callback?.(error, socket);
        return;
      }
      callback?.(null, socket);
    });
    socket.once('error', (error) => callback?.(error, socket));
    return undefined as unknown as ReturnType<NonNullable<https.Agent['createConnection']>>;
  };
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      { method: init.method, headers: init.headers, agent, signal: init.signal },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(init.body);
  });
}
