import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Analytics,
  AnalyticsQuery,
  Benchmark,
  BenchmarkQuery,
  Dashboard,
  Report,
  ReportQuery,
} from '../../../shared/schemas/overview';
import type { AppContext } from '../../context';
import { getAnalytics } from '../../domain/overview/analytics';
import { getBenchmark } from '../../domain/overview/benchmark';
import { getDashboard } from '../../domain/overview/dashboard';
import { getReport } from '../../domain/overview/report';
import { commonErrors, PortalParams } from '../schemas';

const tags = ['overview'];

export function portalOverviewRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/dashboard',
      {
        schema: {
          tags,
          summary: 'Dashboard',
          description:
            "Today's and the next 7 days' jobs, revenue this month, outstanding and overdue balances, open quotes, new customers, ratings and a 6-month revenue series. Days and months are in the account's time zone.",
          params: PortalParams,
          response: { 200: Dashboard, ...commonErrors },
        },
      },
      (request) => getDashboard(ctx, request.auth.account.id),
    );

    app.get(
      '/report',
      {
        schema: {
          tags,
          summary: 'Report for a period',
          description:
            'Payments received, invoiced, jobs completed, new customers, top customers and payment methods between from and to (inclusive, at most 366 days; default this month).',
          params: PortalParams,
          querystring: ReportQuery,
          response: { 200: Report, ...commonErrors },
        },
      },
      (request) => getReport(ctx, request.auth.account.id, request.query),
    );

    app.get(
      '/analytics',
      {
        schema: {
          tags,
          summary: 'Analytics series',
          description:
            'Weekly (weeks start Monday) or monthly buckets with revenue, invoiced, jobs completed, new customers and quote acceptance. Empty buckets are included with zeros. Default: monthly over the last 12 months; at most 1096 days.',
          params: PortalParams,
          querystring: AnalyticsQuery,
          response: { 200: Analytics, ...commonErrors },
        },
      },
      (request) => getAnalytics(ctx, request.auth.account.id, request.query),
    );

    app.get(
      '/benchmark',
      {
        schema: {
          tags,
          summary: 'Benchmark against your own history',
          description:
            "Key figures for the period (default the last 30 days) against the business's own baseline: the average of the 6 periods of the same length before it. baseline is null where there is no history.",
          params: PortalParams,
          querystring: BenchmarkQuery,
          response: { 200: Benchmark, ...commonErrors },
        },
      },
      (request) => getBenchmark(ctx, request.auth.account.id, request.query),
    );
  };
}
