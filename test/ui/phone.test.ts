import { phoneFlows } from './phone-flows';
import { startPortalSession } from './portal-session';

phoneFlows(startPortalSession());
