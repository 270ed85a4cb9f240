import { beforeEach, describe, expect, test } from 'bun:test'
import { ConflictError, InvalidError, TooManyRequestsError, UnauthorizedError } from '../../../src/domain/errors'
import { EMAIL_CHANGE_LIFETIME_MS, EMAIL_CHANGES_PER_HOUR } from '../../../src/domain/members/invitation'
import { FIRST_START_ADMIN_EMAIL } from '../../../src/domain/members/member'
import { failureOf, pathsOf } from '../failure-of'
import { createMailWorld, PUBLIC_BASE_URL, tokenIn, type MailWorld } from '../mail-world'
import { TEST_PASSWORD } from '../../support/world'

// docs/api/access.md "Changing an email": a new address is the member's once the link mailed to it is followed.
const PASSWORD = 'the first long passphrase'

let world: MailWorld
let pat: { id: string; email: string }

beforeEach(async () => {
  world = await createMailWorld()
  const invited = await world.useCases.members.invite.execute(world.admin, { email: 'pat@example.org', role: 'staff', language: 'es' })
  await world.dispatch()
  await world.useCases.auth.acceptInvite.execute({
    token: tokenIn(world.fallbackMail().find((m) => m.to === invited.email)!),
    password: PASSWORD,
  })
  pat = invited
})

const patActor = () => ({ ...world.admin, memberId: pat.id, role: 'staff' as const })
const ask = (email: string) => world.useCases.members.changeEmail.execute(patActor(), { email })
const confirm = (token: string) => world.useCases.members.confirmEmail.execute({ token })
const emailOf = async (id: string) => (await world.repositories.members.findById(world.organizationId, id))!.email
const login = (email: string) => world.useCases.auth.login.execute({ email, password: PASSWORD })

/** The newest confirmation link's token mailed to `to`. */
async function confirmationTo(to: string): Promise<string> {
  await world.dispatch()
  const message = world
    .fallbackMail()
    .filter((m) => m.to === to && m.text.includes('/confirm-email?token='))
    .at(-1)
  if (!message) throw new Error(`no confirmation mail to ${to}`)
  const link = new URL(/https?:\/\/\S+\/confirm-email\?token=\S+/.exec(message.text)![0])
  expect(link.origin).toBe(new URL(PUBLIC_BASE_URL).origin)
  return link.searchParams.get('token')!
}

describe('RequestEmailChange and ConfirmEmailChange', () => {
  test('the email stays until the link mailed to the new address is followed; then login takes the new one', async () => {
    expect(await ask(' Pat.New@Example.ORG ')).toEqual({ status: 'confirmation_sent', email: 'pat.new@example.org' })
    expect(await emailOf(pat.id)).toBe('pat@example.org')
    const token = await confirmationTo('pat.new@example.org')
    const session = await login('pat@example.org')

    expect(await confirm(token)).toEqual({ email: 'pat.new@example.org' })

    expect(await emailOf(pat.id)).toBe('pat.new@example.org')
    expect((await login('pat.new@example.org')).accessToken).toBeTruthy()
    await failureOf(login('pat@example.org'), UnauthorizedError)
    // The other sessions go on: the password, not the address, proves who holds them.
    expect((await world.useCases.auth.refresh.execute(session.refreshToken)).accessToken).toBeTruthy()
    expect(pathsOf(await failureOf(confirm(token), InvalidError))).toEqual(['/token'])
  })

  test("the old address is told, in the member's language, to which address", async () => {
    await ask('pat.new@example.org')
    await world.dispatch()
    const notice = world.fallbackMail().find((m) => m.to === 'pat@example.org' && m.template === 'email_change_notice')
    expect(notice?.text).toContain('pat.new@example.org')
    expect(notice?.subject).toStartWith('Su correo')
    expect(notice?.text).not.toContain('token=')
  })

  test('a link works for 24 hours', async () => {
    await ask('pat.new@example.org')
    const token = await confirmationTo('pat.new@example.org')
    world.clock.advance(EMAIL_CHANGE_LIFETIME_MS + 1)
    expect(pathsOf(await failureOf(confirm(token), InvalidError))).toEqual(['/token'])
    expect(await emailOf(pat.id)).toBe('pat@example.org')
  })

  test('a later request voids the link of an earlier one', async () => {
    await ask('first@example.org')
    const first = await confirmationTo('first@example.org')
    await ask('second@example.org')
    const second = await confirmationTo('second@example.org')
    expect(pathsOf(await failureOf(confirm(first), InvalidError))).toEqual(['/token'])
    await confirm(second)
    expect(await emailOf(pat.id)).toBe('second@example.org')
  })

  test("another member's email is 409; taken between request and confirmation, the confirmation is 409 and nothing changes", async () => {
    const admin = (await world.repositories.members.findById(world.organizationId, world.admin.memberId))!
    await failureOf(ask(admin.email.toUpperCase()), ConflictError)
    await ask('wanted@example.org')
    const token = await confirmationTo('wanted@example.org')
    await world.useCases.members.invite.execute(world.admin, { email: 'wanted@example.org', role: 'staff' })
    await failureOf(confirm(token), ConflictError)
    expect(await emailOf(pat.id)).toBe('pat@example.org')
  })

  test.each([
    ['not an email', 'not an email'],
    ['the current one', 'pat@example.org'],
  ])('%s is 400 at /email, nothing mailed', async (_name, email) => {
    await world.dispatch()
    const before = world.fallbackMail().length
    expect(pathsOf(await failureOf(ask(email), InvalidError))).toEqual(['/email'])
    await world.dispatch()
    expect(world.fallbackMail().length).toBe(before)
  })

  test('at most EMAIL_CHANGES_PER_HOUR asked within the hour: then 429 until the oldest leaves the hour', async () => {
    for (let i = 0; i < EMAIL_CHANGES_PER_HOUR; i++) await ask(`try-${i}@example.org`)
    const refused = await failureOf(ask('one-more@example.org'), TooManyRequestsError)
    expect(refused.retryAfterSeconds).toBe(3600)
    world.clock.advance(3_600_000)
    expect((await ask('one-more@example.org')).status).toBe('confirmation_sent')
  })

  test('a deactivated member cannot follow its link', async () => {
    await ask('pat.new@example.org')
    const token = await confirmationTo('pat.new@example.org')
    await world.useCases.members.update.execute(world.admin, pat.id, { active: false })
    expect(pathsOf(await failureOf(confirm(token), InvalidError))).toEqual(['/token'])
  })

  test('in the audit trail: request_email_change by the asker, change_email by the member, naming the field only', async () => {
    await ask('pat.new@example.org')
    await confirm(await confirmationTo('pat.new@example.org'))
    const events = (
      await world.useCases.audit.list.execute(world.admin, { recordType: 'member', recordId: pat.id }, { page: 1, limit: 10 })
    ).items
    const emailEvents = events
      .filter((e) => e.action.includes('email'))
      .map((e) => ({ action: e.action, memberId: e.memberId, fields: e.fields }))
    expect(emailEvents).toContainEqual({ action: 'request_email_change', memberId: pat.id, fields: ['email'] })
    expect(emailEvents).toContainEqual({ action: 'change_email', memberId: pat.id, fields: ['email'] })
    expect(JSON.stringify(events)).not.toContain('pat.new')
  })
})

describe('UpdateMember: an admin changes a member’s name and email', () => {
  test('the name changes at once; the email is pending until the new address confirms it', async () => {
    const answer = await world.useCases.members.update.execute(world.admin, pat.id, { fullName: ' Pat Jones ', email: 'pj@example.org' })
    expect(answer).toMatchObject({ fullName: 'Pat Jones', email: 'pat@example.org', pendingEmail: 'pj@example.org' })
    await confirm(await confirmationTo('pj@example.org'))
    expect(await emailOf(pat.id)).toBe('pj@example.org')
  })

  test('the same email is no change, and sends nothing', async () => {
    const answer = await world.useCases.members.update.execute(world.admin, pat.id, { email: 'PAT@example.org' })
    expect(answer).not.toHaveProperty('pendingEmail')
  })

  test('a blank name is 400 at /fullName', async () => {
    expect(pathsOf(await failureOf(world.useCases.members.update.execute(world.admin, pat.id, { fullName: '  ' }), InvalidError))).toEqual([
      '/fullName',
    ])
  })
})

describe("the first start's made-up address", () => {
  test('changes at once: no mail reaches it, and the director must not wait on one', async () => {
    const admin = (await world.repositories.members.findById(world.organizationId, world.admin.memberId))!
    await world.repositories.members.update({ ...admin, email: FIRST_START_ADMIN_EMAIL })
    const asked = await world.useCases.members.changeEmail.execute(world.admin, { email: 'director@pantry.example' })
    expect(asked).toEqual({ status: 'changed', email: 'director@pantry.example' })
    expect(await emailOf(world.admin.memberId)).toBe('director@pantry.example')
    expect(
      (await world.useCases.auth.login.execute({ email: 'director@pantry.example', password: TEST_PASSWORD })).accessToken,
    ).toBeTruthy()
  })
})
