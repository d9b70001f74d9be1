import type { StoredConfig } from '../../shared/schemas/config';
import type { AppContext } from '../context';
import type { Tx } from '../db/database';
import { invalidState } from '../lib/errors';
import { clientHubUrl, issueClientLink } from './client-links';
import { requireEmail } from './customers';
import { queueMail, waitingMailFor } from './mail';

/** The stored row of an invoice or a quote, as far as sending it by e-mail goes. */
interface MailedRow {
  id: string;
  number: string;
  customer_id: string;
}

/** A document waits in the outbox at most once: a second send would e-mail the customer twice. */
export async function refuseWhileMailWaits(tx: Tx, row: MailedRow, noun: 'Invoice' | 'Quote') {
  if (await waitingMailFor(tx, row.id)) {
    throw invalidState(
      `${noun} ${row.number} already waits in the outbox; open it in Messages to send it now or cancel it.`,
    );
  }
}

/**
 * Puts an invoice's or a quote's e-mail in the outbox, to its customer's e-mail, with a link to
 * their client hub page when the business runs a client hub.
 */
export async function queueDocumentMail(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  document: {
    kind: 'invoice' | 'quote';
    row: MailedRow;
    customer: { name: string; email: string | null };
    config: StoredConfig;
    /** The subject and body, given the hub link (null without a client hub). */
    compose(hubLink: string | null): { subject: string; body: string };
  },
) {
  const { kind, row, config } = document;
  const to = requireEmail(document.customer, `${kind} ${row.number}`);
  const link = config.client_hub_url ? await issueClientLink(tx, ctx, accountId, row.customer_id) : null;
  await queueMail(tx, ctx, accountId, {
    kind,
    customerId: row.customer_id,
    documentId: row.id,
    to,
    ...document.compose(link && clientHubUrl(config.client_hub_url, link.token)),
  });
}
