/**
 * The client hub's one stylesheet, served from /c/assets/hub.css (the CSP allows styles from the
 * page's own origin only). Phone first: one column, large touch targets; wider screens centre it.
 */
export const CLIENT_HUB_CSS = `
:root {
  --hub-ink: #1d2430;
  --hub-muted: #5b6472;
  --hub-line: #dfe3ea;
  --hub-page: #f6f7f9;
  --hub-card: #ffffff;
  --hub-accent: #1f6feb;
  --hub-good: #1a7f37;
  --hub-warn: #9a6700;
  --hub-bad: #b42318;
}
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--hub-ink); background: var(--hub-page); }
main { max-width: 40rem; margin: 0 auto; padding: 1rem; }
header.business { padding: 1rem; background: var(--hub-card); border-bottom: 1px solid var(--hub-line); }
header.business h1 { margin: 0; font-size: 1.35rem; }
header.business img.logo { display: block; max-width: 10rem; max-height: 3.5rem; margin: 0 0 .5rem; }
ul.visit-photos { display: grid; grid-template-columns: repeat(auto-fill, minmax(6rem, 1fr)); gap: .5rem; margin: 0; padding: 0; list-style: none; }
ul.visit-photos img { display: block; width: 100%; aspect-ratio: 1; object-fit: cover; border-radius: .375rem; }
header.business p { margin: .25rem 0 0; color: var(--hub-muted); font-size: .95rem; }
h2 { font-size: 1.1rem; margin: 1.25rem 0 .5rem; }
.card { background: var(--hub-card); border: 1px solid var(--hub-line); border-radius: .75rem;
  padding: 1rem; margin: 0 0 .75rem; }
.card a.open .num { text-align: right; flex-shrink: 0; }
.card a.open { display: flex; justify-content: space-between; gap: .5rem; color: inherit; text-decoration: none; }
.muted { color: var(--hub-muted); font-size: .9rem; }
.badge { white-space: nowrap; display: inline-block; padding: .1rem .55rem; border-radius: 1rem; font-size: .85rem;
  border: 1px solid currentColor; }
.badge.open { color: var(--hub-accent); }
.badge.good { color: var(--hub-good); }
.badge.warn { color: var(--hub-warn); }
.badge.bad { color: var(--hub-bad); }
table { width: 100%; border-collapse: collapse; font-size: .95rem; }
td, th { padding: .4rem 0; text-align: left; vertical-align: top; border-bottom: 1px solid var(--hub-line); }
td.num, th.num { text-align: right; white-space: nowrap; padding-left: .5rem; }
tr.total td { font-weight: 700; border-bottom: 0; }
form { margin: 0; }
label { display: block; font-weight: 600; margin: .5rem 0 .25rem; }
input[type=text], input[type=email], input[type=tel], input[type=date], select, textarea { width: 100%; font: inherit; padding: .65rem; border: 1px solid var(--hub-line);
  border-radius: .5rem; background: var(--hub-card); color: var(--hub-ink); }
textarea { min-height: 5rem; }
button { width: 100%; font: inherit; font-weight: 600; padding: .8rem; margin-top: .75rem; border-radius: .5rem;
  border: 1px solid var(--hub-accent); background: var(--hub-accent); color: var(--hub-card); cursor: pointer; }
button.secondary { background: var(--hub-card); color: var(--hub-accent); }
.notice { border-left: 4px solid var(--hub-accent); }
.notice.good { border-left-color: var(--hub-good); }
.notice.bad { border-left-color: var(--hub-bad); }
.error { color: var(--hub-bad); font-weight: 600; }
fieldset { border: 0; padding: 0; margin: .5rem 0 0; }
legend { font-weight: 600; padding: 0; }
fieldset.stars { display: flex; flex-direction: row-reverse; justify-content: flex-end; gap: .25rem; }
fieldset.stars input { position: absolute; opacity: 0; width: 1px; height: 1px; }
fieldset.stars label { font-size: 2.6rem; line-height: 1; color: var(--hub-line); cursor: pointer; margin: 0; padding: 0 .1rem; }
fieldset.stars input:checked ~ label { color: var(--hub-warn); }
fieldset.stars input:focus-visible + label { outline: 2px solid var(--hub-accent); }
.pair { display: flex; gap: .5rem; }
.pair > * { flex: 1; }
ul.plain { list-style: none; padding: 0; margin: 0; }
ul.plain li { padding: .35rem 0; border-bottom: 1px solid var(--hub-line); display: flex; justify-content: space-between; gap: .5rem; }
ul.services li { justify-content: flex-start; align-items: flex-start; }
ul.services label { margin: 0; font-weight: 400; flex: 1; }
ul.services label .muted { display: block; }
details summary { cursor: pointer; font-weight: 600; padding: .4rem 0; }
footer { text-align: center; color: var(--hub-muted); font-size: .8rem; padding: 1.5rem 1rem; }
`;
