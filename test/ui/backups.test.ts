import { backupFlows } from './backup-flows';
import { startPortalSession } from './portal-session';

backupFlows(startPortalSession());
