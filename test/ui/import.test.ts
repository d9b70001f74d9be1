import { importFlows } from './import-flows';
import { startPortalSession } from './portal-session';

importFlows(startPortalSession());
