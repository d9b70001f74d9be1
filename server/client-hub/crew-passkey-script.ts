/**
 * The crew app's passkeys (docs/crew.md, "Sessions and passkeys"), a module app.js imports: adding
 * one once signed in, and signing in with one (a discoverable credential, so no name is typed).
 * The options and answers cross as JSON with base64url bytes, converted here by hand: older phone
 * browsers lack PublicKeyCredential.parseCreationOptionsFromJSON and toJSON.
 */
export const CREW_PASSKEY_JS = `
const fromB64 = (text) => {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
};
const toB64 = (buffer) => {
  let text = '';
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
};

async function post(path, body) {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' });
  const answer = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new Error(answer?.error?.message || 'The server said no (' + response.status + ').');
  return answer;
}

export const passkeysWork = () => 'PublicKeyCredential' in window && window.isSecureContext;

/** Registers a passkey for the signed-in member: this phone's fingerprint or face unlock. */
export async function addPasskey() {
  const options = await post('/member/passkeys/registration-options', {});
  const credential = await navigator.credentials.create({ publicKey: {
    ...options,
    challenge: fromB64(options.challenge),
    user: { ...options.user, id: fromB64(options.user.id) },
    excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  } });
  const r = credential.response;
  await post('/member/passkeys/registration', {
    id: credential.id,
    rawId: toB64(credential.rawId),
    type: credential.type,
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment || undefined,
    response: {
      clientDataJSON: toB64(r.clientDataJSON),
      attestationObject: toB64(r.attestationObject),
      transports: r.getTransports ? r.getTransports() : [],
    },
  });
}

/** Signs in with a passkey this phone keeps; answers where the member lands. */
export async function signInWithPasskey() {
  const options = await post('/member/passkeys/authentication-options', {});
  const credential = await navigator.credentials.get({ publicKey: {
    ...options,
    challenge: fromB64(options.challenge),
    allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  } });
  const r = credential.response;
  const signedIn = await post('/member/passkeys/authentication', {
    id: credential.id,
    rawId: toB64(credential.rawId),
    type: credential.type,
    clientExtensionResults: credential.getClientExtensionResults(),
    response: {
      clientDataJSON: toB64(r.clientDataJSON),
      authenticatorData: toB64(r.authenticatorData),
      signature: toB64(r.signature),
      userHandle: r.userHandle ? toB64(r.userHandle) : undefined,
    },
  });
  return signedIn.redirect;
}

export const signOut = () => post('/member/sign-out', {});
`;
