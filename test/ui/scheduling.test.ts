import { startPortalSession } from './portal-session';
import { schedulingFlows } from './scheduling-flows';

schedulingFlows(startPortalSession());
