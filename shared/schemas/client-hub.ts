import { z } from 'zod';
import { text } from './common';

/** What each client hub form carries (docs/client-hub.md); stored as the action's payload. */
export const ClientApproveForm = z.object({
  name: text().min(1).max(120),
});

export const ClientDeclineForm = z.object({
  reason: text({ multiline: true }).max(1000).default(''),
});

export const ClientChangesForm = z.object({
  message: text({ multiline: true }).min(1).max(2000),
});

export const CLIENT_ACTION_FORMS = {
  'quote.approve': ClientApproveForm,
  'quote.decline': ClientDeclineForm,
  'quote.changes': ClientChangesForm,
} as const;

export type ClientActionKind = keyof typeof CLIENT_ACTION_FORMS;

/** A customer asking for a new link after theirs expired: an e-mail address or a phone number. */
export const ClientRelinkForm = z.object({
  contact: text().min(3).max(200),
});
