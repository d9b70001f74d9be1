import type { Invoice } from '../../shared/schemas/invoice';
import { api } from '../lib/api';
import { href, navigate, useRoute } from '../lib/router';
import { PageHeader, useToast } from '../ui';
import { DocumentForm } from './document-form';

export function InvoiceNew() {
  const toast = useToast();
  const { query } = useRoute();
  return (
    <>
      <PageHeader back={{ href: '#/invoices', label: 'Invoices' }} title="New invoice" />
      <DocumentForm
        kind="invoice"
        initialEmail={query.get('email') ?? ''}
        initialName={query.get('name') ?? ''}
        onSubmit={async (body) => {
          const invoice = await api.post<Invoice>('/invoices/create', body);
          toast.show(`Invoice ${invoice.number} created`);
          navigate(href('invoices', invoice.number));
        }}
      />
    </>
  );
}
