import type { z } from 'zod';

/** What is wrong with a value by the shared schema's own rule, in the owner's words. */
export interface Problem {
  message: string;
  /** The value is a number past the schema's maximum. */
  overLimit: boolean;
}

/**
 * Checks one value against the schema the server validates it with, so a limit has one home
 * (shared/schemas) and the form shows it while the owner types rather than after a refusal.
 */
export function problemWith(schema: z.ZodType, value: unknown): Problem | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  return {
    message: issue.message.charAt(0).toUpperCase() + issue.message.slice(1),
    overLimit: issue.code === 'too_big',
  };
}
