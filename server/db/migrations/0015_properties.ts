import { type Kysely, sql } from 'kysely';
import { derivedId } from '../../lib/ids';

/**
 * Places (docs/decisions.md, "Customers and their places"): a customer's service addresses.
 * Every customer's address string becomes their default property, whole in `street` (it cannot be
 * split reliably); `customers.address` stays, as the billing address.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`CREATE TABLE properties (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      customer_id TEXT NOT NULL REFERENCES customers(id),
      label TEXT,
      street TEXT NOT NULL,
      unit TEXT,
      city TEXT,
      region TEXT,
      postal_code TEXT,
      country TEXT,
      access_notes TEXT,
      is_default INTEGER NOT NULL DEFAULT 0,
      status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
      archived_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`)
    .execute(db);
  await sql.raw('CREATE INDEX properties_customer ON properties(customer_id, id)').execute(db);
  await sql.raw('CREATE INDEX properties_account ON properties(account_id, id)').execute(db);
  const addressed = await sql<{ id: string; account_id: string; address: string; created_at: string }>`
    SELECT id, account_id, address, created_at FROM customers
    WHERE address IS NOT NULL AND trim(address) <> '' ORDER BY created_at, id`.execute(db);
  // Every synced install migrates its own copy of the business: a place id derived from the customer
  // makes them all create the same row, which sync merges, instead of one place per install.
  for (const customer of addressed.rows) {
    await sql`INSERT INTO properties (id, account_id, customer_id, street, is_default, created_at, updated_at)
      VALUES (${derivedId('prop', Date.parse(customer.created_at) || 0, `default-place:${customer.id}`)}, ${customer.account_id},
        ${customer.id}, ${customer.address.trim()}, 1, ${customer.created_at}, ${customer.created_at})`.execute(
      db,
    );
  }
}
