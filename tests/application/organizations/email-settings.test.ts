import { beforeEach, describe, expect, test } from 'bun:test'
import type { GetEmailSettings, SendTestEmail, UpdateEmailSettings } from '../../../src/application/organizations/email-settings'
import { ProviderError } from '../../../src/application/ports/provider-error'
import { ForbiddenError, InvalidError, NotFoundError } from '../../../src/domain/errors'
import type { EmailProvider, EmailProviderSettings } from '../../../src/domain/messaging/email'
import { PORTS } from '../../../src/main/container'
import { failureOf, pathsOf } from '../failure-of'
import { createMailWorld, refused, retryable, type MailWorld } from '../mail-world'

const KEYS: Record<EmailProvider, string> = {
  smtp: 'smtps://mailer:s3cret-pass@mail.example.org:465',
  postmark: 'pm-server-token-0000-1234',
  ses: 'AKIAEXAMPLEKEY:wJalrXUtnFEMI/K7MDENG+bPxRfiCY:us-east-1',
  sendgrid: 'SG.sendgrid-key-5678',
}
const settingsFor = (provider: EmailProvider, overrides: Partial<EmailProviderSettings> = {}): EmailProviderSettings => ({
  provider,
  apiKey: KEYS[provider],
  fromEmail: 'help@harbor.example.org',
  fromName: 'Harbor Food Bank',
  ...overrides,
})

let world: MailWorld
let getEmailSettings: GetEmailSettings
let updateEmailSettings: UpdateEmailSettings
let sendTestEmail: SendTestEmail
beforeEach(async () => {
  world = await createMailWorld()
  getEmailSettings = world.useCases.organizations.getEmail
  updateEmailSettings = world.useCases.organizations.updateEmail
  sendTestEmail = world.useCases.organizations.testEmail
})

const storedSettings = (w: { repositories: MailWorld['repositories']; organizationId: string } = world) =>
  w.repositories.emailSettings.find(w.organizationId)
const nonAdmins = async () => {
  const partner = await world.partner()
  return Promise.all(
    (['staff', 'partner_admin', 'partner_agent', 'volunteer'] as const).map((role) =>
      world.member(role, role === 'staff' ? {} : { partnerId: partner.id }),
    ),
  )
}

describe('UpdateEmailSettings', () => {
  test('answers the settings masked: the last four characters of the key, never the key', async () => {
    const answer = await updateEmailSettings.execute(world.admin, settingsFor('postmark'))
    expect(answer).toEqual({
      provider: 'postmark',
      fromEmail: 'help@harbor.example.org',
      fromName: 'Harbor Food Bank',
      apiKeyLast4: '1234',
      updatedAt: world.clock.now(),
    })
    expect(JSON.stringify(answer)).not.toContain(KEYS.postmark)
  })

  test('stores the key sealed: the stored record does not contain it, and it opens to the key', async () => {
    await updateEmailSettings.execute(world.admin, settingsFor('smtp'))
    const stored = (await storedSettings())!
    expect(stored).toMatchObject({
      organizationId: world.organizationId,
      provider: 'smtp',
      apiKeyLast4: ':465',
      fromEmail: 'help@harbor.example.org',
    })
    expect(JSON.stringify(stored)).not.toContain(KEYS.smtp)
    expect(JSON.stringify(stored)).not.toContain('s3cret-pass')
    expect(world.container.get(PORTS.secretBox).open(stored.sealedApiKey)).toBe(KEYS.smtp)
  })

  test('seals the same key differently on each write (a random IV)', async () => {
    await updateEmailSettings.execute(world.admin, settingsFor('sendgrid'))
    const first = (await storedSettings())!.sealedApiKey
    await updateEmailSettings.execute(world.admin, settingsFor('sendgrid'))
    const second = (await storedSettings())!.sealedApiKey
    expect(second).not.toBe(first)
  })

  test('replaces earlier settings; fromName left out is gone', async () => {
    await updateEmailSettings.execute(world.admin, settingsFor('postmark'))
    world.clock.advance(60_000)
    const answer = await updateEmailSettings.execute(
      world.admin,
      settingsFor('ses', { fromName: undefined, fromEmail: 'noreply@harbor.example.org' }),
    )
    expect(answer).not.toHaveProperty('fromName')
    expect(await storedSettings()).toMatchObject({
      provider: 'ses',
      fromEmail: 'noreply@harbor.example.org',
      apiKeyLast4: 'st-1',
      updatedAt: world.clock.now(),
    })
    expect((await storedSettings())!.fromName).toBeUndefined()
  })

  test('logs nothing that holds the key', async () => {
    for (const provider of ['smtp', 'postmark', 'ses', 'sendgrid'] as const)
      await updateEmailSettings.execute(world.admin, settingsFor(provider))
    const logged = JSON.stringify(world.logs)
    for (const key of Object.values(KEYS)) expect(logged).not.toContain(key)
  })

  describe('the key must fit the provider (Invalid at /apiKey, nothing stored)', () => {
    const misfits: Array<[EmailProvider, string]> = [
      ['smtp', 'just-a-token'],
      ['smtp', 'https://mail.example.org'],
      ['smtp', 'smtp://'],
      ['ses', 'AKIAEXAMPLEKEY:secret'],
      ['ses', 'AKIAEXAMPLEKEY:secret:not-a-region'],
      ['ses', ':secret:us-east-1'],
      ['ses', 'AKIA:se:cret:us-east-1'],
      ['postmark', '   '],
      ['sendgrid', ''],
    ]
    for (const [provider, apiKey] of misfits) {
      test(`${provider} refuses ${JSON.stringify(apiKey)}`, async () => {
        const error = await failureOf(updateEmailSettings.execute(world.admin, settingsFor(provider, { apiKey })), InvalidError)
        expect(pathsOf(error)).toEqual(['/apiKey'])
        expect(await storedSettings()).toBeUndefined()
      })
    }

    test('a refused key leaves the earlier settings in place', async () => {
      await updateEmailSettings.execute(world.admin, settingsFor('postmark'))
      const before = await storedSettings()
      await failureOf(updateEmailSettings.execute(world.admin, settingsFor('ses', { apiKey: 'nope' })), InvalidError)
      expect(await storedSettings()).toEqual(before)
    })

    test('each provider takes its own shape of key', async () => {
      for (const provider of ['smtp', 'postmark', 'ses', 'sendgrid'] as const) {
        expect((await updateEmailSettings.execute(world.admin, settingsFor(provider))).provider).toBe(provider)
      }
      expect(
        (await updateEmailSettings.execute(world.admin, settingsFor('smtp', { apiKey: 'smtp://user:pass@localhost:2525' }))).provider,
      ).toBe('smtp')
    })
  })

  test('only an org_admin may set them (Forbidden), and nothing is stored', async () => {
    for (const actor of await nonAdmins()) await failureOf(updateEmailSettings.execute(actor, settingsFor('postmark')), ForbiddenError)
    expect(await storedSettings()).toBeUndefined()
  })

  test("are the organization's own: another organization's stay unset", async () => {
    const other = await world.otherOrganization()
    await updateEmailSettings.execute(world.admin, settingsFor('postmark'))
    expect(await storedSettings(other)).toBeUndefined()
    await failureOf(getEmailSettings.execute(other.admin), NotFoundError)
  })
})

describe('a key left out (the stored one, for its own provider only)', () => {
  const withoutKey = (provider: EmailProvider, overrides: Partial<EmailProviderSettings> = {}) => {
    const { apiKey: _left, ...rest } = settingsFor(provider, overrides)
    return rest
  }

  test('an update keeps the stored key and changes the rest; the audit names the fields changed, not the key', async () => {
    await updateEmailSettings.execute(world.admin, settingsFor('postmark'))
    const answer = await updateEmailSettings.execute(world.admin, withoutKey('postmark', { fromName: 'Harbor Help Desk' }))
    expect(answer).toMatchObject({ provider: 'postmark', fromName: 'Harbor Help Desk', apiKeyLast4: '1234' })
    expect(world.container.get(PORTS.secretBox).open((await storedSettings())!.sealedApiKey)).toBe(KEYS.postmark)
    const { items } = await world.repositories.auditEvents.list(
      world.organizationId,
      { recordType: 'email_settings' },
      { page: 1, limit: 1 },
    )
    expect(items[0]).toMatchObject({ action: 'update', fields: ['fromName'] })
  })

  test('a test sends with the stored key and stores nothing', async () => {
    await updateEmailSettings.execute(world.admin, settingsFor('sendgrid'))
    const before = await storedSettings()
    await sendTestEmail.execute(world.admin, { ...withoutKey('sendgrid'), toEmail: 'director@harbor.example.org' })
    expect(world.senders.sendgrid.delivered.map((sent) => sent.settings.apiKey)).toEqual([KEYS.sendgrid])
    expect(await storedSettings()).toEqual(before)
  })

  test('is Invalid at /apiKey with nothing stored, or when the provider changes: a key goes to no other provider', async () => {
    for (const call of [
      () => updateEmailSettings.execute(world.admin, withoutKey('postmark')),
      () => sendTestEmail.execute(world.admin, { ...withoutKey('postmark'), toEmail: 'director@harbor.example.org' }),
    ])
      expect(pathsOf(await failureOf(call(), InvalidError))).toEqual(['/apiKey'])
    await updateEmailSettings.execute(world.admin, settingsFor('postmark'))
    const before = await storedSettings()
    const error = await failureOf(
      sendTestEmail.execute(world.admin, { ...withoutKey('sendgrid'), toEmail: 'director@harbor.example.org' }),
      InvalidError,
    )
    expect(pathsOf(error)).toEqual(['/apiKey'])
    await failureOf(updateEmailSettings.execute(world.admin, withoutKey('sendgrid')), InvalidError)
    expect(world.senders.sendgrid.attempts).toEqual([])
    expect(await storedSettings()).toEqual(before)
  })
})

describe('GetEmailSettings', () => {
  test('answers Email settings not found while none are set', async () => {
    const error = await failureOf(getEmailSettings.execute(world.admin), NotFoundError)
    expect(error.message).toBe('Email settings not found')
  })

  test('answers the same masked settings the update answered', async () => {
    const answered = await updateEmailSettings.execute(world.admin, settingsFor('ses'))
    world.clock.advance(60_000)
    expect(await getEmailSettings.execute(world.admin)).toEqual(answered)
    expect(JSON.stringify(await getEmailSettings.execute(world.admin))).not.toContain('wJalrXUtnFEMI')
  })

  test('only an org_admin may read them (Forbidden)', async () => {
    await updateEmailSettings.execute(world.admin, settingsFor('postmark'))
    for (const actor of await nonAdmins()) await failureOf(getEmailSettings.execute(actor), ForbiddenError)
  })
})

describe('SendTestEmail', () => {
  const proposal = (provider: EmailProvider, overrides: Partial<EmailProviderSettings> = {}) => ({
    ...settingsFor(provider, overrides),
    toEmail: 'director@harbor.example.org',
  })

  test('sends one message to toEmail with the proposed settings and answers delivered with the messageId', async () => {
    const answer = await sendTestEmail.execute(world.admin, proposal('sendgrid'))
    expect(answer).toEqual({ delivered: true, messageId: 'sendgrid-1' })
    expect(world.senders.sendgrid.delivered).toHaveLength(1)
    const [sent] = world.senders.sendgrid.delivered
    expect(sent!.settings).toEqual(settingsFor('sendgrid'))
    expect(sent!.message.to).toBe('director@harbor.example.org')
    expect(sent!.message.subject).not.toBe('')
  })

  test('stores nothing and puts nothing in the outbox', async () => {
    await sendTestEmail.execute(world.admin, proposal('postmark'))
    expect(await storedSettings()).toBeUndefined()
    expect(await world.dispatch()).toBe(0)
    expect(world.fallbackMail()).toEqual([])
  })

  test('uses the proposed provider, not the stored one, and leaves the stored settings as they were', async () => {
    await updateEmailSettings.execute(world.admin, settingsFor('postmark'))
    const before = await storedSettings()
    await sendTestEmail.execute(world.admin, proposal('ses', { fromEmail: 'trial@harbor.example.org' }))
    expect(world.senders.postmark.attempts).toEqual([])
    expect(world.senders.ses.delivered[0]!.settings).toMatchObject({
      provider: 'ses',
      apiKey: KEYS.ses,
      fromEmail: 'trial@harbor.example.org',
    })
    expect(await storedSettings()).toEqual(before)
  })

  test("a provider's refusal propagates as a ProviderError with its reason, and nothing is stored", async () => {
    world.senders.smtp.failNext(refused('535 Authentication failed'))
    const error = await failureOf(sendTestEmail.execute(world.admin, proposal('smtp')), ProviderError)
    expect(error).toMatchObject({ title: 'Failed to send email', message: '535 Authentication failed' })
    expect(await storedSettings()).toBeUndefined()
  })

  test('a retryable failure is not retried here: one attempt, then the ProviderError', async () => {
    world.senders.postmark.failNext(retryable())
    await failureOf(sendTestEmail.execute(world.admin, proposal('postmark')), ProviderError)
    expect(world.senders.postmark.attempts).toHaveLength(1)
  })

  test('a key that does not fit the provider is Invalid at /apiKey and nothing is sent', async () => {
    const error = await failureOf(sendTestEmail.execute(world.admin, proposal('ses', { apiKey: 'only-one-part' })), InvalidError)
    expect(pathsOf(error)).toEqual(['/apiKey'])
    expect(world.senders.ses.attempts).toEqual([])
  })

  test('only an org_admin may send one (Forbidden), and nothing is sent', async () => {
    for (const actor of await nonAdmins()) await failureOf(sendTestEmail.execute(actor, proposal('sendgrid')), ForbiddenError)
    expect(world.senders.sendgrid.attempts).toEqual([])
  })
})
