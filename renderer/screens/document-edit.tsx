import { portal } from '../lib/api';
import { href, navigate } from '../lib/router';
import { useResource } from '../lib/use-resource';
import { EmptyState, LinkButton, PageHeader, useToast } from '../ui';
import { Loaded } from './common';
import { DocumentForm } from './document-form';

const NOUN = { invoice: 'Invoice', quote: 'Quote' } as const;

/** Edits a draft invoice or quote with the form that created it; sent documents are not editable. */
export function DocumentEdit({ kind, number }: { kind: 'invoice' | 'quote'; number: string }) {
  const toast = useToast();
  const section = kind === 'invoice' ? 'invoices' : 'quotes';
  const params = { path: { number } };
  const path = `/${section}/{number}` as const;
  const document = useResource(() => portal.get(path, { params }), `${section}:${number}`);
  return (
    <>
      <PageHeader
        back={{ href: href(section, number), label: `${NOUN[kind]} ${number}` }}
        title={`Edit ${number}`}
      />
      <Loaded resource={document}>
        {(doc) =>
          doc.status !== 'draft' ? (
            <div className="table-wrap">
              <EmptyState
                title="Only drafts can be edited"
                icon="✎"
                action={<LinkButton href={href(section, number)}>Back to {number}</LinkButton>}
              >
                {NOUN[kind]} {number} has been sent: your customer has it as it is.
              </EmptyState>
            </div>
          ) : (
            <DocumentForm
              kind={kind}
              editing={doc}
              onSubmit={async (body) => {
                const saved = await portal.patch(path, { params, body });
                toast.show(`${NOUN[kind]} ${saved.number} saved`);
                navigate(href(section, saved.number));
              }}
            />
          )
        }
      </Loaded>
    </>
  );
}
