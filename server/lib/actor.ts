import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who makes the writes of the work under way (docs/crew-design.md, "Who made each change"):
 * `member:<id>`, `owner` (the install's own sign-in, which stands for no member), `api_key:<id>`,
 * `client_link:<id>` or `system`. The history and capture triggers read it through a SQLite
 * function at the moment a row changes, so every write knows its actor without being told.
 */
export type Actor = string;

export const SYSTEM_ACTOR: Actor = 'system';
export const OWNER_ACTOR: Actor = 'owner';
export const memberActor = (memberId: string): Actor => `member:${memberId}`;
export const apiKeyActor = (keyId: string): Actor => `api_key:${keyId}`;
export const clientLinkActor = (linkId: string): Actor => `client_link:${linkId}`;

/** A resolver rather than a value: a request learns who it is (its sign-in) after its actor is set. */
const actors = new AsyncLocalStorage<() => Actor>();

/** Runs `work`, and everything it starts, as `actor`. */
export function runAs<T>(actor: Actor | (() => Actor), work: () => T): T {
  return actors.run(typeof actor === 'function' ? actor : () => actor, work);
}

/** The actor of the work under way; work nobody started on anyone's behalf is the system's. */
export function currentActor(): Actor {
  return actors.getStore()?.() ?? SYSTEM_ACTOR;
}
