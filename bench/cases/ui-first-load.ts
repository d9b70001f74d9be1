import { gzipSync } from 'node:zlib';
import { launchChromium } from '../../test/ui/browser';
import { type BenchCase, fmt, type Row } from '../harness';

const KB = 1024;

/**
 * What the browser downloads to show the first screen (the dashboard) after signing in: every file of
 * the UI it fetched (HTML, scripts, styles, the time-zone table), API answers left out, each counted
 * at its gzip size (level 9), as a server or proxy that compresses would send it.
 */
const uiFirstLoadCase: BenchCase = async ({ server, account }) => {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const files: Array<{ path: string; gzip: number }> = [];
    const pending: Array<Promise<void>> = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin !== server.url || url.pathname.startsWith('/api/') || response.status() !== 200) return;
      pending.push(
        response.body().then((body) => {
          files.push({ path: url.pathname, gzip: gzipSync(body, { level: 9 }).length });
        }),
      );
    });
    const token = await server.call('signInToken', account.id);
    await page.goto(`${server.url}/sign-in?token=${token}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    await Promise.all(pending);
    const total = files.reduce((sum, file) => sum + file.gzip, 0);
    const zones = files
      .filter((file) => file.path.includes('time-zone-data'))
      .reduce((s, f) => s + f.gzip, 0);
    const rows: Row[] = [
      {
        case: 'UI first load (gzip), sign-in to the dashboard',
        figure: `${fmt(total / KB, 0)} KB in ${files.length} files, of which the time-zone table ${fmt(zones / KB, 0)} KB`,
        target: '≤ 110 KB',
        pass: total <= 110 * KB,
      },
    ];
    return rows;
  } finally {
    await browser.close();
  }
};
export default uiFirstLoadCase;
