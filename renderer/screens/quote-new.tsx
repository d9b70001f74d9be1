import { portal } from '../lib/api';
import { href, navigate, useRoute } from '../lib/router';
import { PageHeader, useToast } from '../ui';
import { DocumentForm, startFrom } from './document-form';

export function QuoteNew() {
  const toast = useToast();
  const { query } = useRoute();
  return (
    <>
      <PageHeader back={{ href: '#/quotes', label: 'Quotes' }} title="New quote" />
      <DocumentForm
        kind="quote"
        start={startFrom(query)}
        onSubmit={async (body) => {
          const quote = await portal.post('/quotes/create', {
            // The form sends null only when an edit clears the notes; a new document simply has none.
            body: { ...body, notes: body.notes ?? undefined },
          });
          toast.show(`Quote ${quote.number} created`);
          navigate(href('quotes', quote.number));
        }}
      />
    </>
  );
}
