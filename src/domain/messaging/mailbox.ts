/** Gmail's domains: both reach the same mailboxes, whose names ignore dots. */
const GMAIL = 'gmail.com'
const GMAIL_ALIASES = new Set([GMAIL, 'googlemail.com'])

/**
 * The mailbox an email address reaches, as a key (docs/constituents.md "Duplicate detection", docs/api/needs.md
 * "Public intake"): the forms of one address that mail servers deliver to one place are one key. Lower case; a
 * quoted local part without the quotes when what they hold needs none (`"ana"@` is `ana@`); no `+tag` after
 * the local part (`ana+food@`, a subaddress, reaches `ana@`); at Gmail no dots in the local part, googlemail.com
 * being gmail.com. Mail still goes to the address as given: this only says which addresses are one mailbox.
 */
export function mailboxOf(address: string): string {
  const lower = address.trim().toLowerCase()
  const at = lower.lastIndexOf('@')
  if (at < 0) return lower
  const domain = lower.slice(at + 1)
  // Quotes may hold the tag (`"ana+x"@`) or come before it (`"ana"+x@`).
  const local = unquoted(withoutTag(unquoted(lower.slice(0, at))))
  return GMAIL_ALIASES.has(domain) ? `${local.replaceAll('.', '')}@${GMAIL}` : `${local}@${domain}`
}

/** A quoted local part's content, when it holds nothing a quote or escape is needed for; otherwise the part as it is. */
function unquoted(local: string): string {
  const quoted = /^"([^"\\\s@]+)"$/.exec(local)
  return quoted ? quoted[1]! : local
}

/** The local part before its first `+`, unless nothing comes before it. */
function withoutTag(local: string): string {
  const plus = local.indexOf('+')
  return plus > 0 ? local.slice(0, plus) : local
}
