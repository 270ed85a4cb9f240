/**
 * A URL that mailed links are built on (PUBLIC_BASE_URL, an invitation's `appUrl`), parsed as browsers parse
 * it (WHATWG URL), or what is wrong with it. Links are built from the parsed URL, never by pasting the text,
 * and what parsers read differently is refused, so a mail reader opens the host that was checked: a
 * backslash (a slash to browsers, part of a user name to others: `http://allowed\@evil.example` is `allowed`
 * to one and `evil.example` to the other), a user or password, a query and a fragment (the link adds its own
 * query). docs/api/access.md "Members and invitations".
 */
export function parseLinkBase(text: string): { url: URL } | { problem: string } {
  if (text.includes('\\')) return { problem: 'must not contain a backslash (\\)' }
  const url = URL.canParse(text) ? new URL(text) : undefined
  if (!url || !['http:', 'https:'].includes(url.protocol)) return { problem: 'must be an http(s) URL' }
  // `http://@host` parses to no user at all, but other readers may see an empty one: refused as well.
  const authority = text.split(/[/?#]/)[2] ?? ''
  if (url.username || url.password || authority.includes('@')) return { problem: 'must not name a user or password (…@)' }
  if (text.includes('?')) return { problem: 'must not have a query (?…): the link adds its own' }
  if (text.includes('#')) return { problem: 'must not have a fragment (#…)' }
  return { url }
}
