import { useState } from 'react';
import type { Quote } from '../../shared/schemas/quote';
import { api } from '../lib/api';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { Button, Card, Details, Notice, useToast } from '../ui';
import { Loaded } from './common';
import { DeleteDraftDialog, DocumentHeader } from './document-detail';
import { DocumentLines } from './document-view';
import { useBusyAction } from './use-busy-action';

type Action = 'send' | 'accept' | 'decline' | 'convert';

const DONE: Record<Action, (q: Quote) => string> = {
  send: (q) => `Quote ${q.number} queued to ${q.customer.email}`,
  accept: (q) => `Quote ${q.number} recorded as accepted`,
  decline: (q) => `Quote ${q.number} recorded as declined`,
  convert: (q) => `Quote ${q.number} converted into a job`,
};

export function QuoteDetail({ number }: { number: string }) {
  const format = useFormat();
  const toast = useToast();
  const path = `/quotes/${encodeURIComponent(number)}`;
  const quote = useResource(() => api.get<Quote>(path), path);
  const { busy, perform } = useBusyAction<Action>();
  const [confirmDelete, setConfirmDelete] = useState(false);

  const act = (action: Action) =>
    perform(action, async () => {
      const updated = await api.post<Quote>(`${path}/${action}`);
      quote.set(updated);
      toast.show(DONE[action](updated));
    });

  return (
    <Loaded resource={quote}>
      {(q) => {
        const draft = q.status === 'draft';
        const awaiting = q.status === 'sent' || q.status === 'expired';
        return (
          <>
            <DocumentHeader collection="quotes" doc={q} path={path} onDelete={() => setConfirmDelete(true)}>
              {(draft || q.status === 'sent') && (
                <Button write busy={busy === 'send'} onClick={() => act('send')}>
                  {q.sent_at ? 'Send again' : 'Send'}
                </Button>
              )}
              {awaiting && (
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
              <Notice tone="info">Send the quote to your customer; then record their answer here.</Notice>
            )}
            {awaiting && (
              <Notice tone="info">
                When the customer answers, record it with <strong>Accepted</strong> or{' '}
                <strong>Declined</strong>.
              </Notice>
            )}
            <div className="grid grid-3">
              <DocumentLines document={q} />
              <Card title="Details">
                <Details
                  items={[
                    ['Issued', format.date(q.issue_date)],
                    ['Valid until', format.date(q.valid_until)],
                    ['Sent', q.sent_at ? format.dateTime(q.sent_at) : 'Not yet'],
                    ['Accepted', q.accepted_at ? format.dateTime(q.accepted_at) : '—'],
                    ['Declined', q.declined_at ? format.dateTime(q.declined_at) : '—'],
                    ['Converted', q.converted_at ? format.dateTime(q.converted_at) : '—'],
                    ['Notes', q.notes],
                  ]}
                />
              </Card>
            </div>
            <DeleteDraftDialog
              open={confirmDelete}
              onClose={() => setConfirmDelete(false)}
              collection="quotes"
              number={q.number}
              path={path}
            >
              <p>The draft was never sent, so it goes away completely.</p>
            </DeleteDraftDialog>
          </>
        );
      }}
    </Loaded>
  );
}
