import { z } from 'zod';

export const ExportFormat = z.enum(['json', 'csv']);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const ExportQuery = z.object({
  format: ExportFormat.default('json').meta({
    description: 'json: one JSON document (default); csv: a zip with one CSV file per resource.',
  }),
});
export type ExportQuery = z.infer<typeof ExportQuery>;
