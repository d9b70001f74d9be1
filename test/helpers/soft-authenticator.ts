import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A software passkey: a P-256 key pair and the WebAuthn messages an authenticator and browser make
 * (attestation 'none', assertions), built by hand as the spec defines them, so the server's
 * verification runs for real.
 */
const b64u = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');

/** A minimal CBOR encoder: maps, byte and text strings, small integers (all WebAuthn needs here). */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string')
    return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (value instanceof Map) {
    const parts = [head(5, value.size)];
    for (const [k, v] of value) parts.push(cbor(k), cbor(v));
    return Buffer.concat(parts);
  }
  throw new Error(`cbor: ${typeof value}`);
}

export interface SoftPasskey {
  credentialId: Buffer;
  privateKey: KeyObject;
  userHandle: string;
}

function clientData(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

function authData(rpId: string, flags: number, attested?: Buffer): Buffer {
  const rpIdHash = createHash('sha256').update(rpId).digest();
  const counter = Buffer.alloc(4);
  return Buffer.concat([rpIdHash, Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
}

/** Makes a new key for the registration options and answers them with attestation 'none'. */
export function register(
  options: { challenge: string; rp: { id: string }; user: { id: string } },
  origin: string,
) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const cose = cbor(
    new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
  const credentialId = randomBytes(16);
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(credentialId.length);
  const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, cose]);
  // Flags: user present (0x01), attested credential data (0x40).
  const attestationObject = cbor(
    new Map<string, unknown>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', authData(options.rp.id, 0x41, attested)],
    ]),
  );
  const passkey: SoftPasskey = { credentialId, privateKey, userHandle: options.user.id };
  const response = {
    id: b64u(credentialId),
    rawId: b64u(credentialId),
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64u(clientData('webauthn.create', options.challenge, origin)),
      attestationObject: b64u(attestationObject),
      transports: ['internal'],
    },
  };
  return { passkey, response };
}

/** Signs the authentication options' challenge; `wrongKey` signs with another key (a forgery). */
export function assert(
  passkey: SoftPasskey,
  options: { challenge: string; rpId: string },
  origin: string,
  wrongKey = false,
) {
  const data = authData(options.rpId, 0x01);
  const client = clientData('webauthn.get', options.challenge, origin);
  const signed = Buffer.concat([data, createHash('sha256').update(client).digest()]);
  const key = wrongKey ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey : passkey.privateKey;
  return {
    id: b64u(passkey.credentialId),
    rawId: b64u(passkey.credentialId),
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64u(client),
      authenticatorData: b64u(data),
      signature: b64u(sign('sha256', signed, key)),
      userHandle: passkey.userHandle,
    },
  };
}
