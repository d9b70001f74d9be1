import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

/** The desktop shell's own settings (userData/settings.json); the business's settings live in the database. */
export const DesktopSettings = z.strictObject({
  /** A fixed port for local integrations; null lets the system pick a free one at each start. */
  port: z.number().int().min(1).max(65535).nullable().default(null),
  updates: z
    .strictObject({
      enabled: z.boolean().default(true),
      /** A generic update feed; null uses the publish config built into the app (electron-builder.yml). */
      feedUrl: z
        .url({ protocol: /^https?$/ })
        .nullable()
        .default(null),
    })
    .default({ enabled: true, feedUrl: null }),
});
export type DesktopSettings = z.infer<typeof DesktopSettings>;

export const DEFAULT_SETTINGS: DesktopSettings = DesktopSettings.parse({});

export interface LoadedSettings {
  settings: DesktopSettings;
  /** Why the file was ignored, when it was; the shell tells the user rather than failing silently. */
  problem: string | null;
}

export function loadSettings(file: string): LoadedSettings {
  if (!existsSync(file)) return { settings: DEFAULT_SETTINGS, problem: null };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { settings: DEFAULT_SETTINGS, problem: `${file} is not valid JSON: ${(error as Error).message}` };
  }
  const parsed = DesktopSettings.safeParse(raw);
  if (parsed.success) return { settings: parsed.data, problem: null };
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`);
  return { settings: DEFAULT_SETTINGS, problem: `${file} was ignored: ${issues.join('; ')}` };
}

/** Writes through a temporary file so a crash mid-write never leaves half a settings file. */
export function saveSettings(file: string, settings: DesktopSettings): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(temporary, file);
}
