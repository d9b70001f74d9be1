import type { MailMessage } from '../../shared/schemas/customer';
import { Badge } from '../ui';

type MessageKind = MailMessage['kind'];

const LABELS: Record<MessageKind, string> = {
  invoice: 'Invoice',
  quote: 'Quote',
  winback: 'Win-back',
  reminder: 'Reminder',
  review_request: 'Review request',
  owner_alert: 'Alert to you',
  booking_reply: 'Booking reply',
  client_hub_reply: 'Client hub reply',
  on_my_way: 'On my way',
  member_invite: 'Team invitation',
};

/** What an e-mail is about; win-back notes stand out because the owner chose to send them. */
export function MessageKindBadge({ kind }: { kind: MessageKind }) {
  return <Badge tone={kind === 'winback' ? 'accent' : 'neutral'}>{LABELS[kind]}</Badge>;
}
