import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteFile } from './cipher';
import { databaseFile, migrationProvider } from './database';

/**
 * Tables the migrations create that Kysely never reads: the sync machinery and the hub's own store
 * go through prepared statements (server/sync/capture.ts, server/sync/hub/sqlite-storage.ts).
 * A new table is either declared in schema.ts or named here.
 */
const RAW_STATEMENT_TABLES = [
  'hub_aliases',
  'hub_businesses',
  'hub_devices',
  'hub_number_leases',
  'hub_number_series',
  'hub_pairing_codes',
  'hub_rows',
  'hub_webhook_deliveries',
  'hub_webhook_endpoints',
  'kysely_migration',
  'kysely_migration_lock',
  'sync_aliases',
  'sync_clocks',
  'sync_deferred',
  'sync_outbox',
];

/** What server/db/schema.ts says a column holds. */
interface DeclaredColumn {
  nullable: boolean;
  /** `column?:` in the row type: an insert may leave it out, so the table must fill it. */
  optional: boolean;
  affinity: 'TEXT' | 'NUMBER' | 'OTHER';
  /** The string literals of a union such as a status enum; null when any string goes. */
  literals: string[] | null;
}

/** The row types of schema.ts's `Database`, read with the TypeScript checker. */
function declaredTables(): Map<string, Map<string, DeclaredColumn>> {
  const file = path.join(__dirname, 'schema.ts');
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    module: ts.ModuleKind.ESNext,
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  const database = program
    .getSourceFile(file)
    ?.statements.find(
      (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Database',
    );
  if (!database) throw new Error('server/db/schema.ts has no Database interface');
  const tables = new Map<string, Map<string, DeclaredColumn>>();
  for (const table of checker.getTypeAtLocation(database).getProperties()) {
    const columns = new Map<string, DeclaredColumn>();
    for (const column of checker.getTypeOfSymbolAtLocation(table, database).getProperties()) {
      const declaredType = checker.getTypeOfSymbolAtLocation(column, database);
      // Kysely's Generated<T> / ColumnType<Select, ...>: the database holds what a select returns.
      const generated = ['Generated', 'ColumnType'].includes(declaredType.aliasSymbol?.name ?? '');
      const type = (generated && declaredType.aliasTypeArguments?.[0]) || declaredType;
      const parts = type.isUnion() ? type.types : [type];
      const present = parts.filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)));
      const affinity = present.every((t) => t.flags & ts.TypeFlags.StringLike)
        ? 'TEXT'
        : present.every((t) => t.flags & ts.TypeFlags.NumberLike)
          ? 'NUMBER'
          : 'OTHER';
      columns.set(column.name, {
        nullable: parts.some((t) => t.flags & ts.TypeFlags.Null),
        optional: generated || (column.flags & ts.SymbolFlags.Optional) !== 0,
        affinity,
        literals: present.every((t) => t.isStringLiteral())
          ? present.map((t) => (t as ts.StringLiteralType).value).sort()
          : null,
      });
    }
    tables.set(table.name, columns);
  }
  return tables;
}

interface StoredColumn {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

/** `column TEXT ... CHECK (column IN ('a', 'b'))` in a CREATE TABLE, as column → sorted values. */
function checkedValues(createSql: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const match of createSql.matchAll(/CHECK\s*\(\s*(\w+)\s+IN\s*\(([^)]*)\)\s*\)/gi)) {
    const [, column = '', list = ''] = match;
    const values = [...list.matchAll(/'([^']*)'/g)].map((m) => m[1] ?? '');
    if (values.length > 0) found.set(column, values.sort());
  }
  return found;
}

let dataDir: string;
let sqlite: ReturnType<typeof openSqliteFile>;
let declared: Map<string, Map<string, DeclaredColumn>>;
let stored: { name: string; sql: string }[];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-schema-'));
  sqlite = openSqliteFile(databaseFile(dataDir), null);
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) throw error;
  stored = sqlite
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
    )
    .all() as { name: string; sql: string }[];
  declared = declaredTables();
}, 180_000);
afterAll(() => {
  sqlite?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const columnsOf = (table: string) => sqlite.prepare(`PRAGMA table_info("${table}")`).all() as StoredColumn[];

describe('server/db/schema.ts against a freshly migrated database', () => {
  it('declares every table the migrations create, and no other', () => {
    const undeclared = stored.map((t) => t.name).filter((name) => !declared.has(name));
    expect(undeclared).toEqual(RAW_STATEMENT_TABLES);
    const missing = [...declared.keys()].filter((name) => !stored.some((t) => t.name === name));
    expect(missing).toEqual([]);
  });

  it('declares every column with the database’s nullability and type affinity', () => {
    const drift: string[] = [];
    for (const [table, columns] of declared) {
      const actual = columnsOf(table);
      const names = actual.map((c) => c.name);
      for (const name of columns.keys())
        if (!names.includes(name)) drift.push(`${table}.${name}: not in the database`);
      for (const column of actual) {
        const where = `${table}.${column.name}`;
        const type = columns.get(column.name);
        if (!type) {
          drift.push(`${where}: not in schema.ts`);
          continue;
        }
        const nullable = column.notnull === 0 && column.pk === 0;
        if (nullable !== type.nullable)
          drift.push(`${where}: ${nullable ? 'nullable' : 'NOT NULL'} in the database`);
        const affinity = /INT|REAL|NUM/i.test(column.type)
          ? 'NUMBER'
          : /TEXT|CHAR/i.test(column.type)
            ? 'TEXT'
            : 'OTHER';
        if (type.affinity !== affinity)
          drift.push(`${where}: ${column.type} in the database, ${type.affinity} in schema.ts`);
        const filled =
          nullable || column.dflt_value !== null || (column.pk === 1 && /INT/i.test(column.type));
        if (type.optional && !filled) drift.push(`${where}: optional without a default`);
      }
    }
    expect(drift).toEqual([]);
  });

  it('gives every CHECK (column IN …) the values of the column’s type, which come from shared/schemas', () => {
    const drift: string[] = [];
    let checked = 0;
    for (const { name: table, sql } of stored) {
      const columns = declared.get(table);
      if (!columns) continue;
      for (const [column, values] of checkedValues(sql)) {
        checked += 1;
        const literals = columns.get(column)?.literals;
        if (JSON.stringify(literals) !== JSON.stringify(values))
          drift.push(
            `${table}.${column}: CHECK ${values.join(',')}; schema.ts ${literals?.join(',') ?? 'any string'}`,
          );
      }
    }
    expect(drift).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });
});
