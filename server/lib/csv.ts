/**
 * RFC 4180: quote a field holding a comma, quote, CR or LF, doubling inner quotes; rows end in CRLF.
 * Text that a spreadsheet would run as a formula (OWASP's CSV injection: a leading = + - @, tab or
 * CR) gets a leading apostrophe, so it opens as the text it is. Numbers are written as numbers.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const raw = String(value);
  const text = typeof value === 'string' && /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line. */
export function csvRow(values: unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
