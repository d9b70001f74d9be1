import { type CrewActionInput, type CrewPhotoInput, PHOTO_MAX_BYTES } from '../../shared/schemas/crew';
import type { CrewActionsTable } from '../db/schema-hours';
import { ApiError, conflict, forbidden, validationError } from '../lib/errors';
import type { ClientHubRows } from './rows';

/** The member a request signed in, with the business whose rows it reads. */
export interface CrewCaller {
  accountId: string;
  memberId: string;
  sessionId: string;
}

export const NOT_ASSIGNED = 'This visit is not assigned to you.';

/** What the phone is told about an action: the same for every repeat of its id. */
export interface RecordedAction {
  id: string;
  kind: CrewActionsTable['kind'];
  status: CrewActionsTable['status'];
  outcome: string | null;
}

const present = (row: CrewActionsTable): RecordedAction => ({
  id: row.id,
  kind: row.kind,
  status: row.status,
  outcome: row.outcome,
});

async function isAssigned(rows: ClientHubRows, caller: CrewCaller, jobId: string): Promise<boolean> {
  const assignees = await rows.readRows(caller.accountId, 'job_assignees', {
    column: 'job_id',
    values: [jobId],
  });
  return assignees.some((a) => a.member_id === caller.memberId);
}

async function readAction(rows: ClientHubRows, caller: CrewCaller, id: string) {
  return (await rows.readRow(caller.accountId, 'crew_actions', id))?.row as unknown as
    | CrewActionsTable
    | undefined;
}

/** A repeat of an id answers as the first time did; another member's id is never theirs to reuse. */
function answer(row: CrewActionsTable, caller: CrewCaller): RecordedAction {
  if (row.member_id !== caller.memberId) throw conflict('This action id was already used', 'id');
  if (row.status === 'refused' && row.outcome === NOT_ASSIGNED) throw forbidden(NOT_ASSIGNED, 'job_id');
  return present(row);
}

/**
 * Keeps the member's action durably before answering (docs/crew.md, "The phone"): a row of
 * crew_actions through the row port, applied once by an install (at once on an install, when a
 * device syncs on the hosted hub). An action on a visit not assigned to the member is kept as
 * refused, so the owner sees it was tried, and answered 403.
 */
export async function recordCrewAction(
  rows: ClientHubRows,
  caller: CrewCaller,
  input: CrewActionInput,
  now: Date,
): Promise<RecordedAction> {
  const existing = await readAction(rows, caller, input.id);
  if (existing) return answer(existing, caller);
  const refused = input.job_id !== null && !(await isAssigned(rows, caller, input.job_id));
  const row: CrewActionsTable = {
    id: input.id,
    account_id: caller.accountId,
    member_id: caller.memberId,
    session_id: caller.sessionId,
    kind: input.kind,
    job_id: input.job_id,
    payload: JSON.stringify(input.payload),
    done_at: new Date(input.done_at).toISOString(),
    created_at: now.toISOString(),
    status: refused ? 'refused' : 'pending',
    outcome: refused ? NOT_ASSIGNED : null,
    applied_at: refused ? now.toISOString() : null,
  };
  try {
    await rows.writeRow(caller.accountId, 'crew_actions', { ...row });
  } catch (error) {
    // The same id sent twice at once: the other request's row is the answer.
    const raced = await readAction(rows, caller, input.id);
    if (!raced) throw error;
    return answer(raced, caller);
  }
  return answer((await readAction(rows, caller, input.id)) ?? row, caller);
}

/** A photo the member took at their visit: JPEG, at most 2 MB once decoded. */
export async function recordCrewPhoto(
  rows: ClientHubRows,
  caller: CrewCaller,
  input: CrewPhotoInput,
  now: Date,
): Promise<{ id: string; job_id: string; size_bytes: number }> {
  const bytes = Buffer.from(input.data, 'base64');
  if (bytes.length > PHOTO_MAX_BYTES) {
    throw new ApiError(413, 'photo_too_large', 'The photo is larger than 2 MB, even after downscaling.', {
      param: 'data',
    });
  }
  if (bytes.length < 3 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff)
    throw validationError('The photo is not a JPEG', 'data');
  const existing = (await rows.readRow(caller.accountId, 'job_photos', input.id))?.row;
  if (existing) {
    if (existing.member_id !== caller.memberId || existing.job_id !== input.job_id)
      throw conflict('This photo id was already used', 'id');
    return { id: input.id, job_id: input.job_id, size_bytes: Number(existing.size_bytes) };
  }
  if (!(await isAssigned(rows, caller, input.job_id))) throw forbidden(NOT_ASSIGNED, 'job_id');
  await rows.writeRow(caller.accountId, 'job_photos', {
    id: input.id,
    account_id: caller.accountId,
    job_id: input.job_id,
    member_id: caller.memberId,
    content_type: 'image/jpeg',
    size_bytes: bytes.length,
    data: bytes.toString('base64'),
    created_at: now.toISOString(),
  });
  return { id: input.id, job_id: input.job_id, size_bytes: bytes.length };
}
