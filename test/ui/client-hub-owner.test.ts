import { clientHubOwnerFlows } from './client-hub-owner-flows';
import { startPortalSession } from './portal-session';

clientHubOwnerFlows(startPortalSession());
