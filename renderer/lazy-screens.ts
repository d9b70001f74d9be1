/**
 * Every screen the shell routes to, each loaded the first time it is shown: the first load carries
 * React, the shell and the screen it opens on, not the code of every other screen.
 */
import { type ComponentType, lazy } from 'react';
import { loadZoneData } from './lib/zone-data';

function screen<Props>(load: () => Promise<ComponentType<Props>>) {
  return lazy(async () => ({ default: await load() }));
}

export const Analytics = screen(async () => (await import('./screens/analytics')).Analytics);
export const Benchmark = screen(async () => (await import('./screens/benchmark')).Benchmark);
export const Bookings = screen(async () => (await import('./screens/bookings')).Bookings);
export const CustomerDetail = screen(async () => (await import('./screens/customer-detail')).CustomerDetail);
export const Customers = screen(async () => (await import('./screens/customers')).Customers);
export const Dashboard = screen(async () => (await import('./screens/dashboard')).Dashboard);
export const DocumentEdit = screen(async () => (await import('./screens/document-edit')).DocumentEdit);
export const InvoiceDetail = screen(async () => (await import('./screens/invoice-detail')).InvoiceDetail);
export const InvoiceNew = screen(async () => (await import('./screens/invoice-new')).InvoiceNew);
export const Invoices = screen(async () => (await import('./screens/invoices')).Invoices);
export const JobDetail = screen(async () => (await import('./screens/job-detail')).JobDetail);
export const Jobs = screen(async () => (await import('./screens/jobs')).Jobs);
export const Messages = screen(async () => (await import('./screens/messages')).Messages);
export const PlanDetail = screen(async () => (await import('./screens/plan-detail')).PlanDetail);
export const PlanForm = screen(async () => (await import('./screens/plan-form')).PlanForm);
export const Plans = screen(async () => (await import('./screens/plan-list')).Plans);
export const QuoteDetail = screen(async () => (await import('./screens/quote-detail')).QuoteDetail);
export const QuoteNew = screen(async () => (await import('./screens/quote-new')).QuoteNew);
export const Quotes = screen(async () => (await import('./screens/quotes')).Quotes);
export const Report = screen(async () => (await import('./screens/report')).Report);
export const Reviews = screen(async () => (await import('./screens/reviews')).Reviews);
export const SalesTax = screen(async () => (await import('./screens/sales-tax')).SalesTax);
// The business settings list every zone: the whole table comes with the screen.
export const Settings = screen(async () => {
  const [module] = await Promise.all([import('./screens/settings'), loadZoneData()]);
  return module.Settings;
});
export const Team = screen(async () => (await import('./screens/team')).Team);
