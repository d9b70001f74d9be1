/** An uploaded customer file and what became of it (device-local; docs/import-export.md). */
export interface CustomerImportsTable {
  id: string;
  account_id: string;
  file_name: string;
  size_bytes: number;
  encoding: string;
  delimiter: string;
  /** JSON array of the file's header row. */
  headers: string;
  status: 'uploaded' | 'imported' | 'undone';
  /** JSON: the mapping and choices the import ran with. */
  settings: string | null;
  /** JSON summaries of the last dry run and of the import. */
  dry_run: string | null;
  result: string | null;
  /** JSON: the last dry run, import or undo (shared/schemas/customer-import.ts ImportRun). */
  run: string | null;
  /** The file's data rows, counted at upload (null for a file uploaded before runs were counted). */
  data_rows: number | null;
  created_at: string;
  imported_at: string | null;
  undone_at: string | null;
}

/** A customer an import created or updated, with what undoing it needs. */
export interface CustomerImportRowsTable {
  import_id: string;
  customer_id: string;
  source_row: number;
  action: 'created' | 'updated';
  /** The customer's updated_at as the import left it: any later change means someone touched it. */
  stamp: string;
  /** JSON for an update: the fields it replaced and the tags, notes and places it added. */
  before: string | null;
}
