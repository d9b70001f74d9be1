import { pdfFlows } from './pdf-flows';
import { startPortalSession } from './portal-session';

pdfFlows(startPortalSession());
