import { type Kysely, sql } from 'kysely';

/** The records that are done at, or bill for, one of the customer's places. */
export const PLACED_TABLES = ['quotes', 'jobs', 'service_plans', 'bookings', 'invoices'] as const;

/**
 * Places on records (docs/decisions.md, "Customers and their places"): quotes, jobs, service
 * plans, bookings and invoices name the property they are for. Every existing record names its
 * customer's default place (the one migration 0015 made from their address); a customer without
 * one leaves it NULL. Nothing else changes: a job keeps the address it had.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of PLACED_TABLES) {
    await sql.raw(`ALTER TABLE ${table} ADD COLUMN property_id TEXT REFERENCES properties(id)`).execute(db);
    await sql
      .raw(`UPDATE ${table} SET property_id = (
        SELECT p.id FROM properties p
        WHERE p.customer_id = ${table}.customer_id AND p.is_default = 1 AND p.status = 'active'
        ORDER BY p.id LIMIT 1)`)
      .execute(db);
    await sql.raw(`CREATE INDEX ${table}_property ON ${table}(property_id)`).execute(db);
  }
}
