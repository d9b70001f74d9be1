import { Badge } from '../ui';

type MessageKind = 'invoice' | 'quote' | 'winback';

const LABELS: Record<MessageKind, string> = {
  invoice: 'Invoice',
  quote: 'Quote',
  winback: 'Win-back',
};

/** What an e-mail is about; win-back notes stand out because the owner chose to send them. */
export function MessageKindBadge({ kind }: { kind: MessageKind }) {
  return <Badge tone={kind === 'winback' ? 'accent' : 'neutral'}>{LABELS[kind]}</Badge>;
}
