import { mayUse, type Permission, ROLE_PERMISSIONS } from '../../../shared/roles';
import type { MemberRole } from '../../../shared/schemas/team';
import type { SignedInMember } from '../../domain/member-sessions';
import { roleForbidden, unauthorized } from '../../lib/errors';

export type { Permission };

export interface OperationRule {
  needs: Permission;
  /**
   * The signed-in UI's alone, never an API key (keys, backups, imports...): the refusal a key gets.
   * A key stands for the install's owner, so this is the one thing the role cannot say.
   */
  sessionOnly?: string;
}

// Keys, backups (every secret and record of the folder) and imports (thousands of customers at once)
// are the signed-in owner's, never another key's; the guard checks it before anything else runs,
// a stored idempotent replay included.
const KEYS_FROM_UI = 'Keys are managed from the signed-in portal UI or the CLI, not with an API key.';
const BACKUPS_FROM_UI = 'Backups are managed from the signed-in portal UI or the CLI, not with an API key.';
const IMPORTS_FROM_UI =
  'Customer imports are run from the signed-in portal UI (Settings > Import) or the CLI, not with an API key.';
const SMTP_TEST_FROM_UI =
  'A test e-mail is sent from Settings > E-mail in the signed-in portal UI, not with an API key.';

const key = (needs: Permission, sessionOnly = KEYS_FROM_UI): OperationRule => ({ needs, sessionOnly });

/**
 * Who may call what on the portal: every portal operation names the one permission it needs
 * (shared/roles.ts says which roles hold it). The registration in guard.ts refuses to start the
 * server when a portal route has no entry here.
 * Keys are `METHOD path` below /api/portal/{client_id}; HEAD follows GET.
 */
export const PORTAL_OPERATIONS: Readonly<Record<string, Permission | OperationRule>> = {
  'GET /customers': 'read',
  'POST /customers': 'write',
  'GET /customers/possible-duplicates': 'read',
  'GET /customers/:email': 'read',
  'PATCH /customers/:email': 'write',
  'POST /customers/:email/merge': 'write',
  'POST /customers/:email/tags': 'write',
  'DELETE /customers/:email/tags/:tag': 'write',
  'POST /customers/:email/notes': 'write',
  'POST /customers/:email/winback': 'write',
  'POST /customers/:id/client-link': 'write',
  'POST /customers/:id/client-links/revoke': 'write',
  'GET /client-actions': 'read',
  'POST /client-actions/:id/resolve': 'write',
  'POST /customer-imports': key('admin', IMPORTS_FROM_UI),
  'GET /customer-imports/:import_id': key('admin', IMPORTS_FROM_UI),
  'POST /customer-imports/:import_id/preview': key('admin', IMPORTS_FROM_UI),
  'POST /customer-imports/:import_id/dry-run': key('admin', IMPORTS_FROM_UI),
  'POST /customer-imports/:import_id/import': key('admin', IMPORTS_FROM_UI),
  'GET /customer-imports/:import_id/rejected.csv': key('admin', IMPORTS_FROM_UI),
  'POST /customer-imports/:import_id/undo': key('admin', IMPORTS_FROM_UI),
  'GET /properties': 'read',
  'POST /properties': 'write',
  'GET /properties/:id': 'read',
  'PATCH /properties/:id': 'write',
  'POST /properties/:id/archive': 'write',
  'GET /config': 'read',
  'PUT /config': 'write',
  'POST /config/smtp/test': key('write', SMTP_TEST_FROM_UI),
  'GET /integrations': key('admin'),
  'POST /integrations/portal-key': key('admin'),
  'POST /integrations/feed-token': key('admin'),
  'POST /keys': key('admin'),
  'POST /keys/:key_id/rotate': key('admin'),
  'DELETE /keys/:key_id': key('admin'),
  'GET /calendar.ics': 'read',
  'GET /dashboard': 'read',
  'GET /analytics': 'read',
  'GET /benchmark': 'read',
  'GET /report': 'read',
  'GET /reports/sales-tax': 'billing',
  'GET /reports/accounting-export': 'billing',
  'GET /export': 'admin',
  'GET /reminders': 'read',
  'GET /reminders/settings': 'read',
  'PUT /reminders/settings': 'write',
  'GET /invoices': 'billing',
  'POST /invoices/create': 'billing',
  'GET /invoices/:number': 'billing',
  'PATCH /invoices/:number': 'billing',
  'DELETE /invoices/:number': 'billing',
  'POST /invoices/:number/send': 'billing',
  'POST /invoices/:number/mark-sent': 'billing',
  'POST /invoices/:number/paid': 'billing',
  'POST /invoices/:number/payment': 'billing',
  'GET /invoices/:number/pdf': 'billing',
  'POST /invoices/:number/void': 'billing',
  'GET /quotes': 'read',
  'POST /quotes/create': 'write',
  'GET /quotes/:number': 'read',
  'PATCH /quotes/:number': 'write',
  'DELETE /quotes/:number': 'write',
  'POST /quotes/:number/send': 'write',
  'POST /quotes/:number/mark-sent': 'write',
  'POST /quotes/:number/accept': 'write',
  'POST /quotes/:number/decline': 'write',
  'POST /quotes/:number/convert': 'write',
  'GET /quotes/:number/pdf': 'read',
  'GET /jobs': 'own_visits',
  'POST /jobs/create': 'write',
  'GET /jobs/:number': 'own_visits',
  'PATCH /jobs/:number': 'write',
  'POST /jobs/:number/start': 'write',
  'POST /jobs/:number/complete': 'write',
  'POST /jobs/:number/cancel': 'write',
  'GET /jobs/:number/photos': 'own_visits',
  'GET /jobs/:number/photos/:photo_id': 'own_visits',
  'GET /service-plans': 'read',
  'POST /service-plans/preview': 'read',
  'POST /service-plans/create': 'write',
  'GET /service-plans/:id': 'read',
  'PATCH /service-plans/:id': 'write',
  'DELETE /service-plans/:id': 'write',
  'POST /service-plans/:id/end': 'write',
  'GET /service-plans/:id/visits': 'read',
  'GET /bookings': 'read',
  'POST /bookings': 'write',
  'GET /bookings/:id': 'read',
  'PATCH /bookings/:id': 'write',
  'POST /bookings/:id/confirm': 'write',
  'POST /bookings/:id/complete': 'write',
  'POST /bookings/:id/cancel': 'write',
  'POST /bookings/:id/no_show': 'write',
  'GET /booking-requests': 'read',
  'GET /booking-requests/:id': 'read',
  'GET /booking-requests/:id/photos/:photo_id': 'read',
  'POST /booking-requests/:id/confirm': 'write',
  'POST /booking-requests/:id/convert-to-job': 'write',
  'POST /booking-requests/:id/convert-to-quote': 'write',
  'POST /booking-requests/:id/decline': 'write',
  'GET /booking-page': 'read',
  'PUT /booking-page': 'write',
  'GET /team': 'read',
  'POST /team': 'write',
  'GET /team/schedule': 'own_visits',
  'PATCH /team/:id': 'write',
  'DELETE /team/:id': 'write',
  'POST /team/:id/invites': 'admin',
  'GET /team/:id/sessions': 'admin',
  'POST /team/:id/sessions/revoke': 'admin',
  'POST /team/:id/sessions/:session_id/revoke': 'admin',
  'GET /team/:id/passkeys': 'admin',
  'POST /team/:id/passkeys/:passkey_id/revoke': 'admin',
  'GET /logo': 'read',
  'GET /logo/image': 'read',
  'PUT /logo': 'write',
  'DELETE /logo': 'write',
  'GET /quotes/:number/approval': 'read',
  'GET /time-entries': 'own_visits',
  'POST /time-entries': 'write',
  'POST /time-entries/clock-in': 'own_visits',
  'GET /time-entries/:id': 'own_visits',
  'PATCH /time-entries/:id': 'write',
  'DELETE /time-entries/:id': 'write',
  'POST /time-entries/:id/clock-out': 'own_visits',
  'GET /timesheet': 'own_visits',
  'GET /timesheet.csv': 'own_visits',
  'GET /reviews': 'read',
  'POST /reviews': 'write',
  'GET /reviews/dashboard': 'read',
  'GET /reviews/velocity': 'read',
  'GET /webhooks': 'admin',
  'POST /webhooks': 'admin',
  'GET /webhooks/:id': 'admin',
  'PATCH /webhooks/:id': 'admin',
  'DELETE /webhooks/:id': 'admin',
  'POST /webhooks/:id/test': 'admin',
  'POST /webhooks/:id/rotate-secret': 'admin',
  'POST /webhooks/:id/enable': 'admin',
  'GET /webhooks/:id/deliveries': 'admin',
  'GET /webhooks/:id/deliveries/:delivery_id': 'admin',
  'POST /webhooks/:id/deliveries/:delivery_id/redeliver': 'admin',
  'GET /messages': 'read',
  'GET /messages/:id': 'read',
  'POST /messages/:id/retry': 'write',
  'POST /messages/:id/send': 'write',
  'POST /messages/:id/cancel': 'write',
  'GET /sync': 'admin',
  'POST /sync/now': 'admin',
  'POST /sync/pair': 'admin',
  'POST /sync/join': 'admin',
  'DELETE /sync/devices/:device_id': 'admin',
  'GET /sync/conflicts': 'admin',
  'POST /sync/conflicts/:conflict_id/resolve': 'admin',
  'GET /history': 'read',
  'POST /history/:entry_id/restore': 'write',
  'GET /backups': key('admin', BACKUPS_FROM_UI),
  'POST /backups': key('admin', BACKUPS_FROM_UI),
  'PUT /backups/folder': key('admin', BACKUPS_FROM_UI),
  'POST /backups/:backup_id/verify': key('admin', BACKUPS_FROM_UI),
  'POST /backups/:backup_id/restore': key('admin', BACKUPS_FROM_UI),
};

/** The UI's own session routes (server/http/session.ts), outside the portal prefix. */
export const SESSION_OPERATIONS: Readonly<Record<string, Permission>> = {
  'GET /api/session': 'self',
  'POST /api/session/sign-out': 'self',
};

export function operationKey(method: string, path: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${path}`;
}

export function ruleOf(entry: Permission | OperationRule): OperationRule {
  return typeof entry === 'string' ? { needs: entry } : entry;
}

const ROLE_NAMES: Record<MemberRole, string> = { owner: 'the owner', office: 'the office', crew: 'the crew' };

function rolesHolding(permission: Permission): string {
  const allowed = (Object.keys(ROLE_PERMISSIONS) as MemberRole[]).filter((role) => mayUse(role, permission));
  return allowed.map((role) => ROLE_NAMES[role]).join(' and ');
}

/** The operation's line in the OpenAPI document: who may call it. */
export function whoMay(operation: OperationRule): string {
  const crew =
    operation.needs === 'own_visits'
      ? ' (a crew member: their own jobs and hours only, prices per the owner)'
      : '';
  const key = operation.sessionOnly ? ', from the signed-in UI only (never an API key)' : '';
  return `Roles: ${rolesHolding(operation.needs)}${crew}${key}; another role gets 403 role_forbidden.`;
}

/** 403 role_forbidden unless the member's role holds the permission; the message says who may. */
export function checkRole(member: SignedInMember, permission: Permission, param?: string): void {
  if (mayUse(member.role, permission)) return;
  throw roleForbidden(
    `Only ${rolesHolding(permission)} may ${param ? `change ${param}` : 'do this'}; you are signed in as ${member.role}.`,
    param,
  );
}

/**
 * Whose records a member's answers hold: `null` for everyone's, or the member's own id when the
 * role reads only its own visits and hours (the crew).
 */
export function crewScope(member: SignedInMember): string | null {
  if (mayUse(member.role, 'read')) return null;
  if (!member.id) throw unauthorized('Sign in as yourself to see your own visits.');
  return member.id;
}

/** Job answers for a member who may not see prices (the crew, unless allowed): price null. */
export function pricedFor<T extends { price: unknown }>(member: SignedInMember, record: T): T {
  return member.canSeePrices ? record : { ...record, price: null };
}
