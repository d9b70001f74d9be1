import { documentFlows } from './document-flows';
import { startPortalSession } from './portal-session';

documentFlows(startPortalSession());
