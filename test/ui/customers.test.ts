import { customerFlows } from './customer-flows';
import { startFreshShops } from './fresh-shops';

customerFlows(startFreshShops());
