import { z } from 'zod';
import { Timestamp } from './common';

/** A logo's largest size: it travels through sync to every device and the hub, in every PDF. */
export const MAX_LOGO_BYTES = 512 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;

export const LogoUpload = z
  .strictObject({
    data: z
      .string()
      .min(1)
      .meta({
        description: `The image, base64-encoded: a PNG or a JPEG of at most ${MAX_LOGO_BYTES / 1024} KB. Its type is read from its bytes.`,
        example:
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      }),
  })
  .meta({ id: 'LogoUpload' });
export type LogoUpload = z.infer<typeof LogoUpload>;

export const Logo = z
  .object({
    content_type: z.enum(LOGO_TYPES),
    size_bytes: z.number().int(),
    updated_at: Timestamp,
  })
  .meta({ id: 'Logo' });
export type Logo = z.infer<typeof Logo>;
