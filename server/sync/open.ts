import { type DatabaseFile, type OpenDatabaseOptions, openDatabaseFile } from '../db/database';
import { type Capture, installCapture } from './capture';

export interface OpenedDatabase extends DatabaseFile {
  /** Sync's change capture on this connection: its clock, and the switch the applier uses. */
  capture: Capture;
}

/**
 * Opens the data folder's database as every process that writes to it must: with the capture
 * triggers installed (sync/capture.ts), since a business that syncs has its writes captured
 * whichever process makes them, and the triggers call functions only this connection defines.
 */
export async function openDatabase(
  dataDir: string,
  options: OpenDatabaseOptions = {},
): Promise<OpenedDatabase> {
  const file = await openDatabaseFile(dataDir, options);
  try {
    return { ...file, capture: installCapture(file.sqlite) };
  } catch (error) {
    await file.close();
    throw error;
  }
}
