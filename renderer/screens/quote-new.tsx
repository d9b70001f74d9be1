import type { Quote } from '../../shared/schemas/quote';
import { api } from '../lib/api';
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
          const quote = await api.post<Quote>('/quotes/create', body);
          toast.show(`Quote ${quote.number} created`);
          navigate(href('quotes', quote.number));
        }}
      />
    </>
  );
}
