import { startFreshShops } from './fresh-shops';
import { pdfFlows } from './pdf-flows';

pdfFlows(startFreshShops());
