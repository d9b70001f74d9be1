import { backupFlows } from './backup-flows';

backupFlows();
