import { planFlows } from './plan-flows';
import { startPortalSession } from './portal-session';

planFlows(startPortalSession());
