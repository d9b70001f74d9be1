import type { ReactNode } from 'react';
import { portal, portalUrl } from '../lib/api';
import { href, navigate } from '../lib/router';
import { useFormat } from '../lib/session';
import {
  Button,
  Card,
  ConfirmDialog,
  Details,
  LinkButton,
  Notice,
  PageHeader,
  StatusBadge,
  useToast,
} from '../ui';
import { DocumentEmail } from './document-email';
import { RecordHistoryCard } from './record-history';
import { useBusyAction } from './use-busy-action';

interface HeadedDocument {
  number: string;
  status: string;
  customer: { id: string; name: string; email: string | null };
}

const NAMES = {
  invoices: { one: 'Invoice', many: 'Invoices' },
  quotes: { one: 'Quote', many: 'Quotes' },
} as const;

type Collection = keyof typeof NAMES;

const pdfUrl = (collection: Collection, number: string) =>
  portalUrl(`/${collection}/${encodeURIComponent(number)}/pdf`);

/**
 * The head of an invoice or quote page: number, status, customer, the PDF, and for a draft the way
 * to edit or delete it; `children` are the actions only this kind of document has.
 */
export function DocumentHeader({
  collection,
  doc,
  onDelete,
  children,
}: {
  collection: Collection;
  doc: HeadedDocument;
  onDelete(): void;
  children: ReactNode;
}) {
  const names = NAMES[collection];
  return (
    <PageHeader
      back={{ href: `#/${collection}`, label: names.many }}
      name={`${names.one} ${doc.number}`}
      title={
        <span className="row">
          {names.one} {doc.number} <StatusBadge status={doc.status} />
        </span>
      }
      subtitle={
        <>
          <a href={href('customers', doc.customer.id)}>{doc.customer.name}</a> ·{' '}
          {doc.customer.email ?? 'no e-mail on file'}
        </>
      }
      actions={
        <>
          <LinkButton href={pdfUrl(collection, doc.number)} target="_blank" rel="noopener">
            PDF
          </LinkButton>
          {doc.status === 'draft' && (
            <>
              <Button variant="ghost" write onClick={onDelete}>
                Delete draft
              </Button>
              <LinkButton href={href(collection, doc.number, 'edit')}>Edit</LinkButton>
            </>
          )}
          {children}
        </>
      }
    />
  );
}

/**
 * Why a document of a customer without e-mail has no Send button, and what to do instead: the
 * PDF to print or hand over, then "Mark as sent".
 */
export function NoEmailNotice({ doc, kind }: { doc: HeadedDocument; kind: 'invoice' | 'quote' }) {
  return (
    <Notice tone="warning">
      <span data-testid="no-email-notice">
        {doc.customer.name} has no e-mail address, so this {kind} cannot be e-mailed.{' '}
        <a href={pdfUrl(`${kind}s`, doc.number)} target="_blank" rel="noopener">
          Download the PDF
        </a>{' '}
        to print or hand over{doc.status === 'draft' ? ', then mark it as sent' : ''}, or{' '}
        <a href={href('customers', doc.customer.id)}>add their e-mail</a>.
      </span>
    </Notice>
  );
}

/** Asks before deleting a draft; once it is gone the page goes back to the list. */
export function DeleteDraftDialog({
  open,
  onClose,
  collection,
  number,
  children,
}: {
  open: boolean;
  onClose(): void;
  collection: Collection;
  number: string;
  children: ReactNode;
}) {
  const toast = useToast();
  const { busy, perform } = useBusyAction<'delete'>();
  const remove = () =>
    perform('delete', async () => {
      await portal.delete(`/${collection}/{number}` as const, { params: { path: { number } } });
      toast.show(`Draft ${number} deleted`);
      navigate(`#/${collection}`);
    }).finally(onClose);
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={`Delete draft ${number}?`}
      confirmLabel="Delete draft"
      onConfirm={remove}
      busy={busy === 'delete'}
    >
      {children}
    </ConfirmDialog>
  );
}

/**
 * The column beside a document's lines: its e-mail, its details (`details`: what this kind of
 * document adds between the issue date and the notes), and its history.
 */
export function DocumentSide({
  doc,
  collection,
  details,
  mailVersion,
  onChange,
  onMailPending,
}: {
  doc: { id: string; issue_date: string; notes: string | null; updated_at: string };
  collection: Collection;
  details: Array<[string, ReactNode]>;
  mailVersion: number;
  onChange(): void;
  onMailPending(pending: boolean): void;
}) {
  const format = useFormat();
  return (
    <div className="stack">
      <DocumentEmail
        documentId={doc.id}
        version={mailVersion}
        onChange={onChange}
        onPendingChange={onMailPending}
      />
      <Card title="Details">
        <Details items={[['Issued', format.date(doc.issue_date)], ...details, ['Notes', doc.notes]]} />
      </Card>
      <RecordHistoryCard record={`${collection}/${doc.id}`} version={doc.updated_at} onRestored={onChange} />
    </div>
  );
}
