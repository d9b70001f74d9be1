import { portalUrl } from '../lib/api';
import { Card, LinkButton } from '../ui';

const FORMATS = [
  { format: 'quickbooks', label: 'QuickBooks Online' },
  { format: 'xero', label: 'Xero' },
  { format: 'plain', label: 'Plain CSV' },
] as const;

/**
 * The period's invoices and payments as the accountant's import files (docs/import-export.md):
 * the invoices add up to this report's sales and tax to the cent, the payments to what was received.
 */
export function AccountingDownloads({ from, to }: { from: string; to: string }) {
  return (
    <Card title="For your accountant">
      <p className="muted">
        This quarter’s invoices (every line, with its share of the tax) and the payments received, ready to
        import into your accountant’s books.
      </p>
      {(['invoices', 'payments'] as const).map((records) => (
        <section className="row" key={records} aria-label={`Download ${records}`}>
          <strong>{records === 'invoices' ? 'Invoices' : 'Payments'}</strong>
          {FORMATS.map(({ format, label }) => (
            <LinkButton
              key={format}
              href={portalUrl('/reports/accounting-export', { from, to, format, records })}
              download
            >
              {label}
            </LinkButton>
          ))}
        </section>
      ))}
    </Card>
  );
}
