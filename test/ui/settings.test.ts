import { startPortalSession } from './portal-session';
import { settingsFlows } from './settings-flows';

settingsFlows(startPortalSession());
