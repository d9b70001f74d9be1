import { placeFlows } from './place-flows';
import { startPortalSession } from './portal-session';

placeFlows(startPortalSession());
