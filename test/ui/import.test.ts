import { beforeAll } from 'vitest';
import type { UiContext } from './context';
import { freshShop, startFreshShops } from './fresh-shops';
import { importFlows } from './import-flows';

/** An empty business of its own: the import needs none of the seeded customers, jobs and invoices. */
const shops = startFreshShops();
const ui = {} as UiContext;
beforeAll(async () => {
  const { shop, page } = await freshShop(shops);
  Object.assign(ui, { server: shops.server, browser: shops.browser, shop, page });
});

importFlows(ui);
