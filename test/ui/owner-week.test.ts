import { ownerWeekFlows } from './owner-week-flows';
import { startPortalSession } from './portal-session';

ownerWeekFlows(startPortalSession());
