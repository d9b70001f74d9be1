import { useState } from 'react';
import type { Quote } from '../../shared/schemas/quote';
import { portal } from '../lib/api';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { Button, Notice, useToast } from '../ui';
import { Loaded } from './common';
import { DeleteDraftDialog, DocumentHeader, DocumentSide, NoEmailNotice } from './document-detail';
import { afterSendWords } from './document-email';
import { DocumentLines } from './document-view';
import { useBusyAction } from './use-busy-action';

type Action = 'send' | 'mark-sent' | 'accept' | 'decline' | 'convert';

const DONE: Record<Exclude<Action, 'send'>, (q: Quote) => string> = {
  'mark-sent': (q) => `Quote ${q.number} marked as sent`,
  accept: (q) => `Quote ${q.number} recorded as accepted`,
  decline: (q) => `Quote ${q.number} recorded as declined`,
  convert: (q) => `Quote ${q.number} converted into a job`,
};

export function QuoteDetail({ number }: { number: string }) {
  const format = useFormat();
  const toast = useToast();
  const params = { path: { number } };
  const quote = useResource(() => portal.get('/quotes/{number}', { params }), `quote:${number}`);
  const status = quote.data?.status;
  // The record of a customer's approval on the client hub, as the PDF prints it.
  const approval = useResource(
    () => portal.get('/quotes/{number}/approval', { params }),
    `quote-approval:${number}:${status ?? ''}`,
  ).data?.approval;
  const { busy, perform } = useBusyAction<Action>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [mailVersion, setMailVersion] = useState(0);
  const [mailGoingOut, setMailGoingOut] = useState(false);

  const act = (action: Action) =>
    perform(action, async () => {
      const updated = await portal.post(`/quotes/{number}/${action}` as const, { params });
      quote.set(updated);
      setMailVersion((v) => v + 1);
      toast.show(action === 'send' ? await afterSendWords(updated, format) : DONE[action](updated));
    });

  return (
    <Loaded resource={quote}>
      {(q) => {
        const draft = q.status === 'draft';
        const awaiting = q.status === 'sent' || q.status === 'expired';
        // The customer may answer before the quote went out (a yes on the phone): see docs/decisions.md.
        const answerable = draft || awaiting;
        return (
          <>
            <DocumentHeader collection="quotes" doc={q} onDelete={() => setConfirmDelete(true)}>
              {(draft || q.status === 'sent') && q.customer.email && (
                <Button
                  write
                  busy={busy === 'send'}
                  disabled={mailGoingOut}
                  title={mailGoingOut ? 'Its e-mail is on its way: see E-mail below' : undefined}
                  onClick={() => act('send')}
                >
                  {q.sent_at ? 'Send again' : 'Send'}
                </Button>
              )}
              {draft && (
                <Button
                  write
                  busy={busy === 'mark-sent'}
                  title="The customer got it another way (handed over, posted): no e-mail is sent"
                  onClick={() => act('mark-sent')}
                >
                  Mark as sent
                </Button>
              )}
              {answerable && (
                <>
                  <Button variant="danger" write busy={busy === 'decline'} onClick={() => act('decline')}>
                    Declined
                  </Button>
                  <Button write busy={busy === 'accept'} onClick={() => act('accept')}>
                    Accepted
                  </Button>
                </>
              )}
              {q.status === 'accepted' && (
                <Button variant="primary" write busy={busy === 'convert'} onClick={() => act('convert')}>
                  Convert to job
                </Button>
              )}
            </DocumentHeader>
            {(draft || q.status === 'sent') && !q.customer.email && <NoEmailNotice doc={q} kind="quote" />}
            {(q.status === 'accepted' || q.status === 'converted') && approval && (
              <Notice tone="success">
                <span data-testid="quote-approval">
                  Approved by {approval.name} on {format.dateTime(approval.at)}
                  {approval.ip ? ` (from ${approval.ip})` : ''} on the client hub.
                </span>
              </Notice>
            )}
            {q.status === 'converted' && q.job_id && (
              <Notice tone="success">
                This quote became a job.{' '}
                <a href={href('jobs', q.job_id)} data-testid="converted-job-link">
                  Open the job
                </a>{' '}
                to schedule it and assign your team.
              </Notice>
            )}
            {draft && (
              <Notice tone="info">
                Send the quote to your customer (or mark it as sent if they got it another way). If they
                already answered, on the phone or on site, record it with <strong>Accepted</strong> or{' '}
                <strong>Declined</strong>: no e-mail goes out then.
              </Notice>
            )}
            {awaiting && (
              <Notice tone="info">
                When the customer answers, record it with <strong>Accepted</strong> or{' '}
                <strong>Declined</strong>.
              </Notice>
            )}
            <div className="grid grid-3">
              <DocumentLines document={q} />
              <DocumentSide
                doc={q}
                collection="quotes"
                details={[
                  ['Valid until', format.date(q.valid_until)],
                  ['Sent', q.sent_at ? format.dateTime(q.sent_at) : 'Not sent'],
                  ['Accepted', q.accepted_at ? format.dateTime(q.accepted_at) : '—'],
                  ['Declined', q.declined_at ? format.dateTime(q.declined_at) : '—'],
                  ['Converted', q.converted_at ? format.dateTime(q.converted_at) : '—'],
                ]}
                mailVersion={mailVersion}
                onChange={quote.reload}
                onMailPending={setMailGoingOut}
              />
            </div>
            <DeleteDraftDialog
              open={confirmDelete}
              onClose={() => setConfirmDelete(false)}
              collection="quotes"
              number={q.number}
            >
              <p>The draft was never sent, so it goes away completely.</p>
            </DeleteDraftDialog>
          </>
        );
      }}
    </Loaded>
  );
}
