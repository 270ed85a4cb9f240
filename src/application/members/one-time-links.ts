import type { Invitation } from '../../domain/members/invitation'
import type { Member } from '../../domain/members/member'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import type { SecretTokens } from '../ports/secret-tokens'

/** What a link is for: an invitation (no purpose), a password reset or an email change. */
export type LinkPurpose = Invitation['purpose']

/**
 * Issues the token of a one-time link for a member inside the caller's transaction: stored only as a digest,
 * valid for `lifetimeMs`; `email` is the new address an email change confirms. Answers the token, to put in the
 * link and nowhere else.
 */
export async function issueLinkToken(
  r: Repositories,
  deps: { secrets: SecretTokens; ids: IdGenerator },
  member: Member,
  purpose: LinkPurpose,
  now: Date,
  lifetimeMs: number,
  email?: string,
): Promise<string> {
  const token = deps.secrets.generate()
  await r.invitations.insert({
    id: deps.ids.next(),
    organizationId: member.organizationId,
    memberId: member.id,
    tokenDigest: deps.secrets.digest(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + lifetimeMs),
    ...(purpose ? { purpose } : {}),
    ...(email ? { email } : {}),
  })
  return token
}

/**
 * The link a one-time token names and its member, read only; undefined when the token is unknown, for another
 * purpose, already used or expired, or its member is gone.
 */
export async function findLinkToken(
  r: Repositories,
  secrets: SecretTokens,
  token: string,
  purpose: LinkPurpose,
  now: Date,
): Promise<{ link: Invitation; member: Member } | undefined> {
  const link = await r.invitations.findByDigest(secrets.digest(token))
  if (!link || link.purpose !== purpose || link.usedAt || link.expiresAt <= now) return undefined
  const member = await r.members.findById(link.organizationId, link.memberId)
  return member && { link, member }
}

/** The member a one-time link's token names, the token used up (as findLinkToken finds it). A link works once. */
export async function redeemLinkToken(
  r: Repositories,
  secrets: SecretTokens,
  token: string,
  purpose: LinkPurpose,
  now: Date,
): Promise<Member | undefined> {
  const found = await findLinkToken(r, secrets, token, purpose, now)
  return found && (await r.invitations.markUsed(found.link.id, now)) ? found.member : undefined
}
