import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import path from 'node:path';
import { writeFileAtomically } from '../lib/durable-files';

/** A certificate the owner provides (PEM text), or 'generate' for a LAN hub's own. */
export type TlsOption = { cert: string; key: string } | 'generate';

export interface TlsMaterial {
  cert: string;
  key: string;
  /** SHA-256 of the certificate, "AB:CD:…": what a device pins when it pairs with this hub. */
  fingerprint: string;
}

const GENERATED_YEARS = 10;

/** Every name a device on the LAN may use to reach this machine. */
function localNames(): { dns: string[]; ips: string[] } {
  const ips = new Set(['127.0.0.1', '::1']);
  for (const addresses of Object.values(networkInterfaces()))
    for (const address of addresses ?? []) if (!address.internal) ips.add(address.address);
  return { dns: ['localhost', hostname()], ips: [...ips] };
}

/**
 * A self-signed certificate, generated once per data folder and kept in `<data folder>/tls/`. It is
 * not trusted by any authority: devices trust it because they pinned its fingerprint when paired, so it
 * must stay the same across restarts (and is valid for 10 years).
 */
async function generatedCertificate(dataDir: string, now: Date): Promise<{ cert: string; key: string }> {
  const folder = path.join(dataDir, 'tls');
  const certFile = generatedCertificateFile(dataDir);
  const keyFile = path.join(folder, 'hub-key.pem');
  if (existsSync(certFile) && existsSync(keyFile))
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
  const names = localNames();
  const notAfterDate = new Date(now);
  notAfterDate.setUTCFullYear(notAfterDate.getUTCFullYear() + GENERATED_YEARS);
  // Only a LAN hub's first start needs it, and it is slow to load.
  const { generate } = await import('selfsigned');
  const generated = await generate([{ name: 'commonName', value: `Shopdesk hub on ${hostname()}` }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          ...names.dns.map((value) => ({ type: 2 as const, value })),
          ...names.ips.map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  writeFileAtomically(keyFile, generated.private, 0o600);
  writeFileAtomically(certFile, generated.cert);
  return { cert: generated.cert, key: generated.private };
}

function generatedCertificateFile(dataDir: string): string {
  return path.join(dataDir, 'tls', 'hub-cert.pem');
}

/** The fingerprint of the certificate this folder's server generated, if it has one (for the CLI's pairing). */
export function generatedFingerprint(dataDir: string): string | null {
  const file = generatedCertificateFile(dataDir);
  return existsSync(file) ? new X509Certificate(readFileSync(file, 'utf8')).fingerprint256 : null;
}

export async function resolveTls(option: TlsOption, dataDir: string, now: Date): Promise<TlsMaterial> {
  const pair = option === 'generate' ? await generatedCertificate(dataDir, now) : option;
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(pair.cert);
  } catch (error) {
    throw new Error(`The TLS certificate is not a PEM certificate: ${(error as Error).message}`);
  }
  return { ...pair, fingerprint: certificate.fingerprint256 };
}

/** 127.0.0.1, ::1 and localhost never leave the machine; every other address does. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
