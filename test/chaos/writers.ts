import type { Machine } from './machines';
import type { Random } from './random';

export type WriteKind = 'client' | 'invoice' | 'payment';

export interface Acknowledged {
  kind: WriteKind;
  id: string;
  machine: string;
}

export interface ServerError {
  machine: string;
  path: string;
  status: number;
  code: string | null;
}

/** What every writer saw, for the summary and the checks. */
export interface WriteLog {
  acknowledged: Acknowledged[];
  serverErrors: ServerError[];
  requests: number;
  refused: Record<string, number>;
}

export const newWriteLog = (): WriteLog => ({ acknowledged: [], serverErrors: [], requests: 0, refused: {} });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface OpenInvoice {
  id: string;
  balance: number;
  payments: Set<string>;
}

/**
 * One writer on one machine, through the v1 API as an integration would: every POST has an
 * Idempotency-Key and is retried with the same key until the machine answers (it may be down,
 * killed or restarting); a 2xx is an acknowledged write that must survive everything after it.
 */
export class Writer {
  private stopped = false;
  private abandoned = false;
  private made = 0;
  private readonly invoices: OpenInvoice[] = [];
  private readonly clients: Array<{ email: string; name: string }> = [];
  done: Promise<void> = Promise.resolve();

  constructor(
    private readonly machine: Machine,
    private readonly v1Key: string,
    private readonly random: Random,
    private readonly log: WriteLog,
    private readonly label: string,
  ) {}

  start(): void {
    this.done = this.loop();
  }

  /** Stops after the write in hand: a write already sent is retried until it is answered. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }

  /** Stops at once, the write in hand unanswered (the campaign itself failed). */
  abandon(): void {
    this.stopped = true;
    this.abandoned = true;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      if (!this.machine.up) {
        await sleep(200);
        continue;
      }
      const roll = this.random.next();
      const payable = this.invoices.filter((i) => i.balance >= 1);
      if (roll < 0.3 || this.clients.length === 0) await this.createClient();
      else if (roll < 0.7 || payable.length === 0) await this.createInvoice();
      else await this.pay(this.random.pick(payable));
    }
  }

  private async createClient(): Promise<void> {
    const n = ++this.made;
    const client = { email: `${this.label}-${n}@chaos.example`, name: `Client ${this.label} ${n}` };
    const answer = await this.send('/clients', client);
    if (!answer) return;
    this.clients.push(client);
    this.log.acknowledged.push({ kind: 'client', id: answer.id as string, machine: this.machine.name });
  }

  private async createInvoice(): Promise<void> {
    const client = this.random.pick(this.clients);
    const answer = await this.send('/invoices', {
      customer_email: client.email,
      customer_name: client.name,
      items: [
        { description: 'Visit', quantity: 1 + this.random.int(3), unit_price: 20 + this.random.int(80) },
      ],
    });
    if (!answer) return;
    this.invoices.push({ id: answer.id as string, balance: answer.total as number, payments: new Set() });
    this.log.acknowledged.push({ kind: 'invoice', id: answer.id as string, machine: this.machine.name });
  }

  private async pay(invoice: OpenInvoice): Promise<void> {
    const amount = Math.min(invoice.balance, 1 + this.random.int(30));
    const answer = await this.send(`/invoices/${invoice.id}/payments`, { amount });
    if (!answer) return;
    invoice.balance = (answer.total as number) - (answer.amount_paid as number);
    for (const payment of answer.payments as Array<{ id: string }>) {
      if (invoice.payments.has(payment.id)) continue;
      invoice.payments.add(payment.id);
      this.log.acknowledged.push({ kind: 'payment', id: payment.id, machine: this.machine.name });
    }
  }

  /** The answer of a 2xx; null when refused (4xx) or failed (5xx); retried while unanswered. */
  private async send(path: string, body: unknown): Promise<Record<string, unknown> | null> {
    const key = `${this.label}-${++this.made}`;
    for (;;) {
      while (!this.machine.up && !this.abandoned) await sleep(200);
      if (this.abandoned) return null;
      let response: Response;
      try {
        this.log.requests += 1;
        response = await fetch(`${this.machine.url}/api/v1${path}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${this.v1Key}`,
            'content-type': 'application/json',
            'idempotency-key': key,
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(120_000),
        });
      } catch {
        // Refused, reset or cut by a kill: no answer, so the write may or may not have happened.
        await sleep(250);
        continue;
      }
      const text = await response.text();
      const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      const code = (parsed.error as { code?: string } | undefined)?.code ?? null;
      if (response.ok) return parsed;
      if (response.status === 429 || code === 'idempotency_key_in_use') {
        await sleep(1000);
        continue;
      }
      if (response.status >= 500) {
        this.log.serverErrors.push({ machine: this.machine.name, path, status: response.status, code });
        return null;
      }
      const refusal = `${response.status} ${code}`;
      this.log.refused[refusal] = (this.log.refused[refusal] ?? 0) + 1;
      return null;
    }
  }
}
