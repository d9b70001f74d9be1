/** "1 open invoice", "3 open invoices": a number with the noun that agrees with it. */
export function count(n: number, one: string, many: string): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}
