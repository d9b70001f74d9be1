import { escapeHtml, layout } from './page';

/** The invitation's page (docs/crew.md, "Inviting"): server-rendered, no scripts, phone first. */
export function joinPage(business: string, member: string, action: string, formToken: string): string {
  return layout(
    `Join ${business}`,
    undefined,
    `<h2>Join ${escapeHtml(business)} as ${escapeHtml(member)}</h2>
<div class="card"><p>This signs you in on this phone or computer to see your visits. The link works once.</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="form_token" value="${escapeHtml(formToken)}">
<button type="submit">Join as ${escapeHtml(member)}</button></form></div>`,
    'This link is for you only: please do not share it.',
  );
}

export function inviteGonePage(): string {
  return layout(
    'This link no longer works',
    undefined,
    `<h2>This link no longer works</h2>
<div class="card notice bad">It was used already, it expired (links work for 7 days) or a newer one replaced it. Ask the owner for a new link.</div>`,
  );
}
