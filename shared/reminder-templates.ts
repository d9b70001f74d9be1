/**
 * The placeholders each automatic reminder's template may use, and how a template is filled. Shared
 * so the Settings preview shows exactly the words the customer will get.
 */

export const REMINDER_KINDS = ['invoice_overdue', 'appointment', 'quote_follow_up'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

export const REMINDER_PLACEHOLDERS: Record<ReminderKind, readonly string[]> = {
  invoice_overdue: [
    'customer_name',
    'business_name',
    'invoice_number',
    'amount_due',
    'invoice_total',
    'due_date',
    'days_overdue',
  ],
  appointment: ['customer_name', 'business_name', 'visit_time', 'visit_title', 'visit_address'],
  quote_follow_up: ['customer_name', 'business_name', 'quote_number', 'quote_total', 'valid_until'],
};

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** Placeholders a template uses that its reminder does not fill, in order of appearance, once each. */
export function unknownPlaceholders(template: string, kind: ReminderKind): string[] {
  const known = new Set(REMINDER_PLACEHOLDERS[kind]);
  const unknown = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (!known.has(match[1]!)) unknown.add(match[1]!);
  }
  return [...unknown];
}

/** The sentence an owner reads when a template names a placeholder its reminder cannot fill. */
export function unknownPlaceholderMessage(unknown: string[], kind: ReminderKind): string {
  const names = unknown.map((name) => `{${name}}`).join(', ');
  const allowed = REMINDER_PLACEHOLDERS[kind].map((name) => `{${name}}`).join(', ');
  return `${unknown.length === 1 ? 'has an unknown placeholder' : 'has unknown placeholders'} ${names}; use ${allowed}`;
}

/** Fills a template whose placeholders were checked when it was saved. */
export function fillReminder(template: string, values: Record<string, string>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);
}

/** Example values for the Settings preview, in the shape the sender fills them. */
export const PREVIEW_VALUES: Record<ReminderKind, Record<string, string>> = {
  invoice_overdue: {
    customer_name: 'Ada Lovelace',
    invoice_number: 'INV-0042',
    amount_due: '$271.20',
    invoice_total: '$271.20',
    due_date: '2026-11-08',
    days_overdue: '7',
  },
  appointment: {
    customer_name: 'Ada Lovelace',
    visit_time: 'Tuesday, November 24, 2026 at 9:00 a.m.',
    visit_title: 'Deep clean',
    visit_address: '12 King St W, Toronto',
  },
  quote_follow_up: {
    customer_name: 'Ada Lovelace',
    quote_number: 'Q-0017',
    quote_total: '$480.00',
    valid_until: '2026-12-22',
  },
};
