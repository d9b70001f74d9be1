/** The page runs nothing and loads nothing; only its inline styles apply. */
export const SIGN_IN_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

/**
 * What a person sees when a sign-in link cannot be used (opened twice, or too late): a page that
 * says how to get a new one, not the API's JSON error. Plain HTML, styled inline: the UI bundle is
 * not loaded for it.
 */
export function signInLinkPage(message: string): string {
  const text = message.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in link used — Shopdesk</title>
</head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; color: #1d2939; line-height: 1.5">
<h1 style="font-size: 1.5rem">This sign-in link cannot be used</h1>
<p>${text} Each link works once, for a short time.</p>
<p>For a new link, run this on the computer where Shopdesk runs:</p>
<pre style="background: #f2f4f7; padding: 0.75rem 1rem; border-radius: 8px">npm run --silent cli -- sign-in</pre>
<p>If you are already signed in, <a href="/">open Shopdesk</a>.</p>
</body>
</html>
`;
}
