import { PHONE_DEVICE, phoneFlows } from './phone-flows';
import { startPortalSession } from './portal-session';

phoneFlows(startPortalSession(PHONE_DEVICE));
