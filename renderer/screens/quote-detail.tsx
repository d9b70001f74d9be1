import { useState } from 'react';
import type { Quote } from '../../shared/schemas/quote';
import { api, portalUrl } from '../lib/api';
import { href, navigate } from '../lib/router';
import { useFormat } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { Button, Card, Details, Dialog, LinkButton, Notice, PageHeader, StatusBadge, useToast } from '../ui';
import { Loaded } from './common';
import { DocumentLines } from './document-view';

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
  const [busy, setBusy] = useState<Action | 'delete'>();
  const [confirmDelete, setConfirmDelete] = useState(false);

  const remove = async () => {
    setBusy('delete');
    try {
      await api.delete(path);
      toast.show(`Draft ${number} deleted`);
      navigate('#/quotes');
    } catch (failure) {
      toast.show((failure as Error).message, 'error');
      setBusy(undefined);
      setConfirmDelete(false);
    }
  };

  const act = async (action: Action) => {
    setBusy(action);
    try {
      const updated = await api.post<Quote>(`${path}/${action}`);
      quote.set(updated);
      toast.show(DONE[action](updated));
    } catch (failure) {
      toast.show((failure as Error).message, 'error');
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <Loaded resource={quote}>
      {(q) => {
        const draft = q.status === 'draft';
        const awaiting = q.status === 'sent' || q.status === 'expired';
        return (
          <>
            <PageHeader
              back={{ href: '#/quotes', label: 'Quotes' }}
              title={
                <span className="row">
                  Quote {q.number} <StatusBadge status={q.status} />
                </span>
              }
              subtitle={
                <>
                  <a href={href('customers', q.customer.email)}>{q.customer.name}</a> · {q.customer.email}
                </>
              }
              actions={
                <>
                  <LinkButton href={portalUrl(`${path}/pdf`)} target="_blank" rel="noopener">
                    PDF
                  </LinkButton>
                  {draft && (
                    <>
                      <Button variant="ghost" write onClick={() => setConfirmDelete(true)}>
                        Delete draft
                      </Button>
                      <LinkButton href={href('quotes', q.number, 'edit')}>Edit</LinkButton>
                    </>
                  )}
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
                </>
              }
            />
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
              <DocumentLines
                items={q.items}
                taxes={q.taxes}
                subtotal={q.subtotal}
                taxTotal={q.tax_total}
                total={q.total}
                currency={q.currency}
              />
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
            <Dialog
              open={confirmDelete}
              onClose={() => setConfirmDelete(false)}
              title={`Delete draft ${q.number}?`}
              footer={
                <>
                  <Button onClick={() => setConfirmDelete(false)}>Keep it</Button>
                  <Button variant="danger" write busy={busy === 'delete'} onClick={remove}>
                    Delete draft
                  </Button>
                </>
              }
            >
              <p>The draft was never sent, so it goes away completely.</p>
            </Dialog>
          </>
        );
      }}
    </Loaded>
  );
}
