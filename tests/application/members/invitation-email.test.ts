import { beforeEach, describe, expect, test } from 'bun:test'
import type { InviteMember } from '../../../src/application/members/invite-member'
import { InvalidError } from '../../../src/domain/errors'
import { INVITATION_LIFETIME_MS } from '../../../src/domain/members/invitation'
import { PORTS } from '../../../src/main/container'
import { failureOf, pathsOf } from '../failure-of'
import { createMailWorld, linkIn, PUBLIC_BASE_URL, tokenIn, type MailWorld } from '../mail-world'
import { invitationSent, staffInput } from './invite-member-support'

// The mail an invitation sends and the link in it (docs/api/access.md "Members and invitations"); who may
// invite whom: invite-member.test.ts.

let world: MailWorld
let invite: InviteMember
beforeEach(async () => {
  world = await createMailWorld()
  invite = world.useCases.members.invite
})

const storedByEmail = (email: string) => world.repositories.members.findByEmail(world.organizationId, email)
const sentMail = () => invitationSent(world)

describe('InviteMember: the invitation email', () => {
  test('exactly one goes through the outbox, to the member, with a link to PUBLIC_BASE_URL/accept-invite', async () => {
    await invite.execute(world.admin, staffInput({ fullName: 'Ana Lopez' }))
    expect(await world.dispatch()).toBe(1)
    expect(await world.dispatch()).toBe(0)
    const mail = world.fallbackMail()
    expect(mail).toHaveLength(1)
    expect(mail[0]).toMatchObject({ to: 'new.staff@example.org', organizationId: world.organizationId })
    expect(mail[0]!.text).toContain('Ana Lopez')
    expect(linkIn(mail[0]!)).toStartWith(`${PUBLIC_BASE_URL}/accept-invite?token=`)
    expect(tokenIn(mail[0]!).length).toBeGreaterThanOrEqual(43) // 256 bits in base64url
  })

  test("is written in the member's language, the role in words, never its code", async () => {
    await invite.execute(
      world.admin,
      staffInput({ fullName: 'Ana Lopez', role: 'volunteer', partnerId: world.defaultPartner.id, language: 'es' }),
    )
    const [spanish] = await sentMail()
    expect(spanish!.subject).toStartWith('Le invitan a ')
    expect(spanish!.text).toContain('como voluntario(a).')
    await invite.execute(world.admin, staffInput({ email: 'agent@example.org', role: 'partner_agent', partnerId: world.defaultPartner.id }))
    const english = (await sentMail()).find((mail) => mail.to === 'agent@example.org')
    expect(english!.text).toContain('as an agent of a partner.')
    for (const mail of [spanish!, english!]) expect(mail.text).not.toMatch(/volunteer|partner_agent/)
  })

  test('links to an appUrl on one of the appOrigins instead, without a doubled slash', async () => {
    await world.useCases.organizations.updateSettings.execute(world.admin, { appOrigins: ['https://app.example.org'] })
    await invite.execute(world.admin, staffInput({ appUrl: 'https://app.example.org/' }))
    const [mail] = await sentMail()
    expect(linkIn(mail!)).toStartWith('https://app.example.org/accept-invite?token=')
  })

  test('writes the link from the parsed appUrl, not its text: lower case, no default port', async () => {
    await world.useCases.organizations.updateSettings.execute(world.admin, { appOrigins: ['https://app.example.org'] })
    await invite.execute(world.admin, staffInput({ appUrl: 'https://App.EXAMPLE.org:443/Join' }))
    const [mail] = await sentMail()
    expect(linkIn(mail!)).toStartWith('https://app.example.org/Join/accept-invite?token=')
  })

  test("links to an appUrl on PUBLIC_BASE_URL's own origin, a path kept", async () => {
    await invite.execute(world.admin, staffInput({ appUrl: `${PUBLIC_BASE_URL}/staff` }))
    const [mail] = await sentMail()
    expect(linkIn(mail!)).toStartWith(`${PUBLIC_BASE_URL}/staff/accept-invite?token=`)
  })

  test.each([
    ['an origin not listed', 'https://evil.example/steal'],
    ["another organization's app", 'https://other-app.example.org'],
    ['a listed host over http', 'http://app.example.org'],
    ['a listed host behind credentials', 'https://app.example.org@evil.example'],
    ['a listed host on another port', 'https://app.example.org:8443'],
    ['a listed host, a backslash, then another host', 'https://app.example.org\\@evil.example'],
    ['a listed host after credentials', 'https://user:pw@app.example.org/'],
    ['a listed host with a fragment', 'https://app.example.org/#x'],
    ['a listed host with a query', 'https://app.example.org/?next=https://evil.example'],
    ['a listed host under a scheme in capitals', 'HTTPS://app.example.org'],
  ])('%s is Invalid at /appUrl: no member, no invitation, no email', async (_name, appUrl) => {
    await world.useCases.organizations.updateSettings.execute(world.admin, { appOrigins: ['https://app.example.org'] })
    const other = await world.otherOrganization()
    await other.useCases.organizations.updateSettings.execute(other.admin, { appOrigins: ['https://other-app.example.org'] })
    const error = await failureOf(invite.execute(world.admin, staffInput({ appUrl })), InvalidError)
    expect(pathsOf(error)).toEqual(['/appUrl'])
    expect(await storedByEmail('new.staff@example.org')).toBeUndefined()
    expect(await sentMail()).toEqual([])
  })

  test('goes to the lower-cased address', async () => {
    await invite.execute(world.admin, staffInput({ email: 'Mixed.Case@Example.ORG' }))
    expect((await sentMail()).map((m) => m.to)).toEqual(['mixed.case@example.org'])
  })

  test('carries a fresh token for each invitation', async () => {
    await invite.execute(world.admin, staffInput({ email: 'one@example.org' }))
    await invite.execute(world.admin, staffInput({ email: 'two@example.org' }))
    const tokens = (await sentMail()).map(tokenIn)
    expect(new Set(tokens).size).toBe(2)
  })

  test('its token is stored only as a digest, valid for 7 days', async () => {
    await invite.execute(world.admin, staffInput())
    const [mail] = await sentMail()
    const token = tokenIn(mail!)
    expect(await world.repositories.invitations.findByDigest(token)).toBeUndefined()
    const invitation = await world.repositories.invitations.findByDigest(world.container.get(PORTS.secrets).digest(token))
    expect(invitation).toMatchObject({ organizationId: world.organizationId, createdAt: world.clock.now() })
    expect(invitation!.expiresAt.getTime() - world.clock.now().getTime()).toBe(INVITATION_LIFETIME_MS)
    expect(INVITATION_LIFETIME_MS).toBe(7 * 24 * 3_600_000)
    expect(invitation!.usedAt).toBeUndefined()
  })
})
