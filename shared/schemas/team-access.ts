import { z } from 'zod';
import { Timestamp } from './common';

/** A team member's invitation, sessions and passkeys as the owner sees them (docs/crew.md). */

export const MemberInviteCreate = z
  .strictObject({
    email: z.boolean().optional().meta({ description: "true e-mails the link to the member's address." }),
  })
  .meta({ id: 'MemberInviteCreate' });

export const MemberInvite = z
  .object({
    object: z.literal('member_invite'),
    id: z.string(),
    url: z.string().meta({ description: 'The one-time link, shown once: it works for 7 days.' }),
    qr_svg: z.string().meta({ description: 'The link as a QR code (SVG) to scan with the phone.' }),
    expires_at: Timestamp,
    emailed_to: z.string().nullable(),
  })
  .meta({ id: 'MemberInvite' });
export type MemberInvite = z.infer<typeof MemberInvite>;

export const MemberSession = z
  .object({
    object: z.literal('member_session'),
    id: z.string(),
    user_agent: z.string().nullable(),
    created_at: Timestamp,
    expires_at: Timestamp,
  })
  .meta({ id: 'MemberSession' });
export type MemberSession = z.infer<typeof MemberSession>;

export const MemberPasskey = z
  .object({
    object: z.literal('member_passkey'),
    id: z.string(),
    transports: z.array(z.string()),
    created_at: Timestamp,
  })
  .meta({ id: 'MemberPasskey' });
export type MemberPasskey = z.infer<typeof MemberPasskey>;

export const Revoked = z.object({ revoked: z.number().int() }).meta({ id: 'Revoked' });
