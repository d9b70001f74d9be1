import { CLIENT_HUB_CSS } from './style';

/** The phone app's shell: no data in it, so anyone may load it; app.js fills it from the API. */
export const CREW_APP_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#1f6feb">
<title>Crew</title>
<link rel="manifest" href="/crew/manifest.webmanifest">
<link rel="stylesheet" href="/crew/app.css">
<script type="module" src="/crew/app.js"></script>
</head>
<body>
<header class="business"><h1 id="who">Your visits</h1><p id="status" role="status"></p></header>
<nav class="tabs"><button type="button" data-tab="today" aria-pressed="true">Today</button><button type="button" data-tab="week" aria-pressed="false">This week</button><button type="button" data-tab="clock" aria-pressed="false">Clock</button><button type="button" data-tab="you" aria-pressed="false">You</button></nav>
<main id="screen"><p class="muted">Loading…</p></main>
</body>
</html>
`;

/** The client hub's look, with the phone's tabs, big buttons and the waiting list. */
export const CREW_APP_CSS = `${CLIENT_HUB_CSS}
nav.tabs { display: flex; gap: .25rem; padding: .5rem 1rem 0; background: var(--hub-card);
  border-bottom: 1px solid var(--hub-line); }
nav.tabs[hidden] { display: none; }
nav.tabs button { flex: 1; padding: .75rem .25rem; white-space: nowrap; border: 0; background: none; font: inherit;
  color: var(--hub-muted); border-bottom: 3px solid transparent; }
nav.tabs button[aria-pressed="true"] { color: var(--hub-accent); border-bottom-color: var(--hub-accent); font-weight: 600; }
.actions { display: grid; gap: .5rem; margin: .75rem 0; }
.actions button, button.big { min-height: 3rem; font: inherit; font-weight: 600; border-radius: .6rem;
  border: 1px solid var(--hub-accent); background: var(--hub-accent); color: var(--hub-card); }
button.secondary { background: var(--hub-card); color: var(--hub-accent); }
.checklist label { display: flex; gap: .6rem; align-items: center; padding: .45rem 0; }
.checklist input { width: 1.4rem; height: 1.4rem; }
textarea, input[type="text"] { width: 100%; font: inherit; padding: .6rem; border: 1px solid var(--hub-line);
  border-radius: .5rem; }
.photos { display: flex; flex-wrap: wrap; gap: .5rem; margin: .5rem 0; }
.photos img { width: 5rem; height: 5rem; object-fit: cover; border-radius: .4rem; }
.waiting { background: var(--hub-card); border: 1px dashed var(--hub-warn); color: var(--hub-warn);
  border-radius: .6rem; padding: .6rem .8rem; margin: 0 0 .75rem; }
`;

export const CREW_MANIFEST = JSON.stringify({
  name: 'Crew',
  short_name: 'Crew',
  start_url: '/crew/',
  scope: '/crew/',
  display: 'standalone',
  background_color: '#f6f7f9',
  theme_color: '#1f6feb',
  icons: [],
});
