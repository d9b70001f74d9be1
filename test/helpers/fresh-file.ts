import { forgetIds } from '../../server/lib/ids';

/**
 * Runs before every test file of the projects whose files share their worker's loaded modules
 * (vitest.config.ts, isolate: false): puts back what a freshly started process would have where a
 * module keeps state across calls. The id generator is the one such module whose state changes
 * what a test sees (its newest id only moves forward); the other module-level maps are caches
 * keyed by what they hold.
 */
forgetIds();
