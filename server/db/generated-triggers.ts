import type SQLite from 'better-sqlite3-multiple-ciphers';

/**
 * Brings the triggers whose names start with `prefix` to `wanted` (name → CREATE TRIGGER text):
 * one whose text differs is replaced, one no longer wanted dropped, in one transaction; a database
 * whose triggers are already right is left alone, so opening it writes nothing.
 */
export function replaceGeneratedTriggers(
  sqlite: SQLite.Database,
  prefix: string,
  wanted: ReadonlyMap<string, string>,
): void {
  const existing = new Map(
    (
      sqlite
        .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ?`)
        .all(prefix.length, prefix) as Array<{ name: string; sql: string }>
    ).map((t) => [t.name, t.sql]),
  );
  const stale = [...existing.keys()].filter((name) => existing.get(name) !== wanted.get(name));
  const missing = [...wanted.keys()].filter((name) => existing.get(name) !== wanted.get(name));
  if (stale.length === 0 && missing.length === 0) return;
  sqlite.transaction(() => {
    for (const name of stale) sqlite.exec(`DROP TRIGGER IF EXISTS ${name}`);
    for (const name of missing) sqlite.exec(wanted.get(name)!);
  })();
}
