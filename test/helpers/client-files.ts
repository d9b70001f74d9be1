import { PRESET_HEADERS } from '../../server/domain/customer-import/presets';

const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
export const csvLine = (values: string[]) => `${values.map(field).join(',')}\r\n`;

/** Row i of a Jobber-shaped client export: a person with a phone, an e-mail, tags and a service address. */
export function jobberRow(i: number): string[] {
  const byHeader: Record<string, string> = {
    'J-ID': String(1000 + i),
    'Display Name': `Client ${i} Example`,
    'First Name': 'Client',
    'Last Name': `${i} Example`,
    'Main Phone #s': `416-555-${String(i % 10000).padStart(4, '0')}`,
    'E-mails': `client${i}@example.com`,
    Tags: i % 3 === 0 ? 'VIP, Weekly' : 'weekly',
    'Billing Street 1': `${i} Queen St W`,
    'Billing City': 'Toronto',
    'Billing State': 'ON',
    'Billing Country': 'Canada',
    'Billing Zip code': 'M5H 2N2',
    'Service Property Name': 'Home',
    'Service Street 1': `${i} King St E`,
    'Service City': 'Toronto',
    'Service State': 'ON',
    'Service Country': 'Canada',
    'Service Zip code': 'M5C 1G8',
    'Created Date': '2024-05-01',
    Archived: 'false',
    Lead: 'false',
  };
  return PRESET_HEADERS.jobber.map((h) => byHeader[h] ?? '');
}

/**
 * A Jobber-shaped export of `rows` clients, `bad` of them spread through the file unusable for a
 * reason each: no name, a broken e-mail, nothing to reach them by, or a repeat of an earlier row.
 */
export function jobberExport(rows: number, bad = 0): { csv: string; badRows: number[] } {
  const headers = PRESET_HEADERS.jobber;
  const col = (name: string) => headers.indexOf(name);
  const badRows: number[] = [];
  let csv = csvLine(headers);
  const step = bad ? Math.floor(rows / bad) : 0;
  for (let i = 1; i <= rows; i += 1) {
    const values = jobberRow(i);
    if (bad && i % step === 0 && badRows.length < bad) {
      const kind = badRows.length % 4;
      if (kind === 0) {
        values[col('Display Name')] = '';
        values[col('First Name')] = '';
        values[col('Last Name')] = '';
      } else if (kind === 1) values[col('E-mails')] = 'not-an-email';
      else if (kind === 2) {
        for (const h of headers) if (h !== 'Display Name' && h !== 'J-ID') values[col(h)] = '';
      } else values[col('E-mails')] = 'client1@example.com';
      badRows.push(i + 1);
    }
    csv += csvLine(values);
  }
  return { csv, badRows };
}
