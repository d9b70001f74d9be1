import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ClientApproveForm,
  ClientChangesForm,
  ClientDeclineForm,
  ClientPaymentNoticeForm,
  ClientRelinkForm,
  ClientRescheduleForm,
  ClientReviewForm,
  ClientWorkForm,
  PublicBookingForm,
} from '../../shared/schemas/client-hub';

/**
 * The client hub's routes in the OpenAPI document, under the "Client hub" tag: HTML pages and
 * HTML form posts for customers' browsers, not the JSON API. The schemas document them only: the
 * pages check what they are sent themselves and answer HTML, so validation and serialization
 * pass through (routes.ts calls passThrough on its plugin).
 */
const tags = ['Client hub'];
const Html = z.string().meta({ description: 'An HTML page (no scripts; a strict Content-Security-Policy).' });
const page = (description: string) => ({ description, content: { 'text/html': { schema: Html } } });
const FormToken = z.object({
  form_token: z.string().meta({ description: 'The token of the page the form is on.' }),
});

const Token = z.string().meta({ description: 'The personal link’s token: lnk_… and its secret.' });
const linkParams = z.object({ token: Token });
const Version = z.string().meta({ description: 'The logo’s version, as the page links it.' });
const withId = (what: string) => z.object({ token: Token, id: z.string().meta({ description: what }) });

const notOnPage = page(
  'The link is unknown, expired or revoked (one page for all, with a form to ask for a new link), or the item is not on this page.',
);
const tooMany = page(
  'Too many requests from this address or for this link; Retry-After says when to try again.',
);
const readResponses = { 200: page('The page.'), 404: notOnPage, 429: tooMany };
const writeResponses = {
  303: z.null().meta({ description: 'Recorded: Location is the page that shows it.' }),
  400: page('The form is not valid: the page again, with the message.'),
  403: page('The form was not posted from its own page (Origin), or its form token is wrong.'),
  404: notOnPage,
  409: page('Answered already (a visit is reviewed once).'),
  429: tooMany,
};

function form(body: z.ZodObject, multipart = false) {
  return {
    consumes: multipart ? ['multipart/form-data'] : ['application/x-www-form-urlencoded'],
    body,
  };
}

const get = (summary: string, description: string, params?: z.ZodObject) => ({
  tags,
  summary,
  description,
  security: [],
  ...(params && { params }),
  response: readResponses,
});

const post = (summary: string, description: string, params: z.ZodObject, body: ReturnType<typeof form>) => ({
  tags,
  summary,
  description,
  security: [],
  params,
  ...body,
  response: writeResponses,
});

export const HUB_SCHEMAS = {
  home: get('A customer’s page', 'Their business, quotes and what they sent.', linkParams),
  quote: get(
    'A quote on the customer’s page',
    'Its lines and totals as on the PDF, and its answers.',
    withId('The quote (quo_…).'),
  ),
  answer: post(
    'Answer a quote',
    'action is approve (name), decline (reason) or changes (message): recorded as a client action the owner’s install applies once (quote.accepted / quote.declined).',
    z.object({ token: Token, id: z.string(), action: z.enum(['approve', 'decline', 'changes']) }),
    form(
      FormToken.extend(ClientApproveForm.partial().shape)
        .extend(ClientDeclineForm.partial().shape)
        .extend(ClientChangesForm.partial().shape),
    ),
  ),
  renew: post(
    'Ask for a new link',
    'From an expired link: the answer is the same whether or not the contact matched.',
    linkParams,
    form(ClientRelinkForm),
  ),
  invoices: get('A customer’s invoices', 'Open and paid invoices with their balances.', linkParams),
  invoice: get(
    'An invoice on the customer’s page',
    'Lines and totals as on the PDF, payments, the balance, and how to pay as the owner wrote it.',
    withId('The invoice (inv_…).'),
  ),
  invoicePdf: {
    ...get(
      'An invoice’s PDF',
      'The invoice as the business sends it, logo included: rendered from the rows the serving hub or install holds (on the hosted hub while every owner computer is off). Another customer’s invoice is 404.',
      withId('The invoice (inv_…).'),
    ),
    response: {
      200: {
        description: 'The PDF.',
        content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } },
      },
      404: notOnPage,
      429: tooMany,
    },
  },
  paymentNotice: post(
    'Say the payment was sent',
    'Records invoice.payment_notice: the owner is told once and records the payment. Card payment is not offered (no processor is reachable).',
    withId('The invoice (inv_…).'),
    form(FormToken.extend(ClientPaymentNoticeForm.shape)),
  ),
  visits: get(
    'A customer’s visits',
    'Upcoming and past visits with date, arrival window and address.',
    linkParams,
  ),
  visit: get(
    'A visit on the customer’s page',
    'Its date, arrival window, address, and the reschedule form.',
    withId('The visit (job_…).'),
  ),
  reschedule: post(
    'Ask to reschedule a visit',
    'Records visit.reschedule with a message and preferred times: the owner moves the visit or answers with another time.',
    withId('The visit (job_…).'),
    form(FormToken.extend(ClientRescheduleForm.shape)),
  ),
  properties: get(
    'A customer’s places',
    'Their service addresses (never the crew’s access notes).',
    linkParams,
  ),
  review: get(
    'The review form of a visit',
    'Star rating and comment for a completed visit (the review request e-mail’s link).',
    withId('The review request (rrq_…).'),
  ),
  reviewPost: post(
    'Review a visit',
    'Records review.submit, applied once (review.received). A second answer for the visit is 409 with a message.',
    withId('The review request (rrq_…).'),
    form(FormToken.extend(ClientReviewForm.shape)),
  ),
  work: get(
    'The request work form',
    'Services from the booking page, the customer’s places, preferred days and times.',
    linkParams,
  ),
  workPost: post(
    'Request work',
    'Records booking.request, applied once by the owner’s install (booking.created); photos as files named photos (JPEG, PNG or WebP, up to 3, 2 MB each).',
    linkParams,
    form(
      FormToken.extend(ClientWorkForm.shape).extend({
        photos: z.string().optional().meta({ format: 'binary' }),
      }),
      true,
    ),
  ),
  workSent: get('Request work: sent', 'The confirmation after a request.', linkParams),
  book: get(
    'A business’s public booking page',
    'Services with durations and prices, the hours offered; 404 while the owner has it off.',
    z.object({ business: z.string().meta({ description: 'The business (account id).' }) }),
  ),
  bookPost: post(
    'Request a booking',
    'Records booking.page, applied once by the owner’s install: the customer found by e-mail or created, booking.created. The same answer whether or not the e-mail matched; 10 requests an hour per address (429).',
    z.object({ business: z.string() }),
    form(PublicBookingForm),
  ),
  bookSent: get(
    'Public booking page: sent',
    'The confirmation after a request.',
    z.object({ business: z.string() }),
  ),
  visitPhoto: {
    ...get(
      'A photo the crew took at the visit',
      'Shown when the owner turned on crew_photos_in_client_hub, for a completed visit of the link’s customer; 404 otherwise.',
      withId('The visit (job_…).').extend({
        photo_id: z.string().meta({ description: 'The photo (jph_…).' }),
      }),
    ),
    response: {
      200: {
        description: 'The photo.',
        content: { 'image/jpeg': { schema: z.string().meta({ format: 'binary' }) } },
      },
      404: notOnPage,
      429: tooMany,
    },
  },
  logo: logoRoute('The business’s logo on the customer’s page', linkParams.extend({ version: Version })),
  bookLogo: logoRoute(
    'The business’s logo on its public booking page',
    z.object({ business: z.string(), version: Version }),
  ),
};

function logoRoute(summary: string, params: z.ZodObject) {
  return {
    ...get(
      summary,
      'The image the owner uploaded (PNG or JPEG), cached for a year: its address changes with the logo. 404 when the business has no logo, or not this version of it.',
      params,
    ),
    response: {
      200: {
        description: 'The logo.',
        content: Object.fromEntries(
          ['image/png', 'image/jpeg'].map((type) => [
            type,
            { schema: z.string().meta({ format: 'binary' }) },
          ]),
        ),
      },
      404: notOnPage,
      429: tooMany,
    },
  };
}

/** The pages parse and check their own forms and send HTML: schemas above document, never validate. */
export function passThrough(app: FastifyInstance): void {
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => (typeof data === 'string' ? data : JSON.stringify(data)));
}
