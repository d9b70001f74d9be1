import { portal } from '../lib/api';
import { href, navigate, useRoute } from '../lib/router';
import { useResource } from '../lib/use-resource';
import { PageHeader, useToast } from '../ui';
import { Loaded } from './common';
import { DocumentForm, type DocumentStart, startFrom } from './document-form';

/**
 * What "Invoice this job" bills: the lines and taxes of the quote the job came from, else one line
 * with the job's title and price; for the job's customer, with the job and its address in the notes.
 */
async function billedJob(number: string): Promise<DocumentStart> {
  const job = await portal.get('/jobs/{number}', { params: { path: { number } } });
  const start = {
    customerId: job.customer.id,
    email: job.customer.email ?? '',
    name: job.customer.name,
    notes: [`Job ${job.job_number}: ${job.title}`, job.address].filter(Boolean).join(' — '),
  };
  if (job.quote_id) {
    const quote = await portal.get('/quotes/{number}', { params: { path: { number: job.quote_id } } });
    return { ...start, items: quote.items, taxes: quote.taxes };
  }
  return { ...start, items: [{ description: job.title, quantity: 1, unit_price: job.price ?? 0 }] };
}

export function InvoiceNew() {
  const { query } = useRoute();
  const job = query.get('job');
  return (
    <>
      <PageHeader back={{ href: '#/invoices', label: 'Invoices' }} title="New invoice" />
      {job ? <JobInvoiceForm job={job} /> : <InvoiceForm start={startFrom(query)} />}
    </>
  );
}

function JobInvoiceForm({ job }: { job: string }) {
  const billed = useResource(() => billedJob(job), `bill:${job}`);
  return <Loaded resource={billed}>{(start) => <InvoiceForm start={start} />}</Loaded>;
}

function InvoiceForm({ start }: { start: DocumentStart }) {
  const toast = useToast();
  return (
    <DocumentForm
      kind="invoice"
      start={start}
      onSubmit={async (body) => {
        const invoice = await portal.post('/invoices/create', {
          // The form sends null only when an edit clears the notes; a new document simply has none.
          body: { ...body, notes: body.notes ?? undefined },
        });
        toast.show(`Invoice ${invoice.number} created`);
        navigate(href('invoices', invoice.number));
      }}
    />
  );
}
