import { ensureRendererBuilt } from './browser';

/**
 * Global set-up of the ui project: the renderer is built once, before any test file starts, so
 * two files never build dist/renderer at the same time.
 */
export default function setup() {
  ensureRendererBuilt();
}
