import type { Acknowledged, ServerError } from './writers';

/** A portal export (GET /export) without its time stamp: every synced resource of the business. */
export type Export = Record<string, unknown>;

type Item = { id?: string } & Record<string, unknown>;

function collections(exported: Export): Map<string, Map<string, string>> {
  const found = new Map<string, Map<string, string>>();
  for (const [name, value] of Object.entries(exported)) {
    if (!Array.isArray(value)) {
      found.set(name, new Map([['', JSON.stringify(value)]]));
      continue;
    }
    const items = new Map<string, string>();
    for (const item of value as Item[]) {
      const text = JSON.stringify(item);
      items.set(typeof item.id === 'string' ? item.id : text, text);
    }
    found.set(name, items);
  }
  return found;
}

/** Records present on one machine and not the other, or present on both with other values. */
export function divergentRows(reference: Export, other: Export): Array<{ collection: string; id: string }> {
  const left = collections(reference);
  const right = collections(other);
  const differing: Array<{ collection: string; id: string }> = [];
  for (const name of new Set([...left.keys(), ...right.keys()])) {
    const a = left.get(name) ?? new Map();
    const b = right.get(name) ?? new Map();
    for (const id of new Set([...a.keys(), ...b.keys()]))
      if (a.get(id) !== b.get(id)) differing.push({ collection: name, id });
  }
  return differing;
}

const COLLECTION: Record<Acknowledged['kind'], string> = {
  client: 'customers',
  invoice: 'invoices',
  payment: 'payments',
};

/** Acknowledged writes whose record is missing from a machine's final state. */
export function lostWrites(acknowledged: Acknowledged[], exported: Export): Acknowledged[] {
  const ids = new Map<string, Set<string>>();
  for (const name of Object.values(COLLECTION)) {
    const items = (exported[name] as Item[] | undefined) ?? [];
    ids.set(name, new Set(items.map((i) => i.id).filter((id): id is string => typeof id === 'string')));
  }
  return acknowledged.filter((write) => !ids.get(COLLECTION[write.kind])!.has(write.id));
}

export interface Decision {
  kind: string;
  record_type: string;
  record_id: string;
}

export const decisionKey = (d: Decision) => `${d.kind} ${d.record_type} ${d.record_id}`;

export interface Summary {
  seed: number;
  minutes: number;
  machines: Array<{ name: string; clock_offset_ms: number; starts: number }>;
  faults: Record<string, number>;
  writes: { requests: number; acknowledged: number; lost: number; refused: Record<string, number> };
  lost_writes: Acknowledged[];
  divergent_rows: number;
  divergent_examples: Array<{ machine: string; collection: string; id: string }>;
  server_errors: number;
  server_error_examples: ServerError[];
  events: { expected: number; delivered: number; missing: number; delivered_more_than_once: number };
  missing_event_examples: string[];
  decisions: { identical: boolean; per_machine: Record<string, string[]> };
  checks: Record<string, 'passed' | 'failed' | 'skipped'>;
  violations: string[];
}
