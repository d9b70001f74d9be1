import { customerFlows } from './customer-flows';
import { startPortalSession } from './portal-session';

customerFlows(startPortalSession());
