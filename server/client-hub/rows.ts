/**
 * The rows the client hub reads and writes (docs/client-hub.md, "Serving"): a business's synced
 * rows in the JSON shape sync carries (the columns a device sends, values as SQLite stores them),
 * from whichever storage serves the page: the hosted hub's (hub-rows.ts) or an install's own
 * SQLite (install-rows.ts). Everything the pages show is read through this port, so one renderer
 * and one set of rules serve both.
 */
export type Row = Record<string, unknown>;

export interface RowFilter {
  column: string;
  /** The row's column holds one of these. */
  values: string[];
}

export interface ClientHubRows {
  /**
   * The live row of `table` whose id is `id`, with the business that holds it. `accountId` null
   * looks in every business the storage holds (a link's id is all a customer's URL names).
   */
  readRow(
    accountId: string | null,
    table: string,
    id: string,
  ): Promise<{ accountId: string; row: Row } | undefined>;
  /** The business's live rows of `table` matching the filter. */
  readRows(accountId: string, table: string, where: RowFilter): Promise<Row[]>;
  /**
   * Keeps a row the page originates (a customer's action) durably before the page answers: one
   * transaction. Rows of `client_actions` are applied exactly once by the install's applier
   * (domain/client-actions.ts): on an install at once, on the hosted hub when a device syncs.
   */
  writeRow(accountId: string, table: string, row: Row): Promise<void>;
}
