import type { LocalState } from './local-state';

/**
 * One default place per customer after a sync (docs/sync.md, "Default places"). Two devices that
 * chose different defaults while apart each wrote their choice field by field, so a customer can
 * come back with two defaults (or, with an archive in the mix, none). The choice made last wins:
 * the active place whose is_default was set at the newest clock (the id breaks a tie); with no
 * default left, the newest active place takes it, as archiving the default does. Every device
 * decides alike from the same rows and clocks, and writes the fix as an ordinary (captured) write,
 * so the hub and every other device end with the same one. Returns the rows it wrote.
 */
export function settleDefaultPlace(local: LocalState, customerId: string, now: string): number {
  const places = local
    .statement('SELECT id, is_default, status FROM properties WHERE customer_id = ? ORDER BY id DESC')
    .all(customerId) as Array<{ id: string; is_default: number; status: string }>;
  const active = places.filter((p) => p.status === 'active');
  if (active.length === 0) return clearDefaults(local, places, null, now);
  const defaults = active.filter((p) => p.is_default === 1);
  const chosenAt = (id: string) => local.clocks('properties', JSON.stringify([id])).is_default ?? '';
  const keep =
    defaults.length === 0
      ? active[0]!.id
      : defaults.reduce((best, p) => {
          const [a, b] = [chosenAt(p.id), chosenAt(best.id)];
          return a > b || (a === b && p.id > best.id) ? p : best;
        }).id;
  return clearDefaults(local, places, keep, now);
}

function clearDefaults(
  local: LocalState,
  places: Array<{ id: string; is_default: number }>,
  keep: string | null,
  now: string,
): number {
  const update = local.statement('UPDATE properties SET is_default = ?, updated_at = ? WHERE id = ?');
  let written = 0;
  for (const place of places) {
    const wanted = place.id === keep ? 1 : 0;
    if (place.is_default === wanted) continue;
    update.run(wanted, now, place.id);
    written += 1;
  }
  return written;
}
