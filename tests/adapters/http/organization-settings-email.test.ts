import { describe, expect, test } from 'bun:test'
import { deliverUntil, expectBadRequest, expectProblem, invitationIn, ISO_MS, fallbackEmailsTo, fallbackInvitationTo } from './helpers'
import { api, openSettingsServer, other, smtp, smtpUrl, tokens, world } from './organization-settings-support'
import { BASE_URL, EMAIL, getEmail, NON_ADMINS, organizationWithAdmin, putEmail, SES_SECRET } from './organization-settings-support'
import { SMTP_PASSWORD, SMTP_USER, smtpSettings, testEmail, WRONG_PASSWORD } from './organization-settings-support'

// docs/api/organization.md "Organization settings" and "Outgoing mail": an organization's own email provider, over real
// HTTP, with a real SMTP server on 127.0.0.1. Its key is a secret: it is never answered, logged or stored in
// clear, and the organization's mail goes through it while others' still goes to the fallback.
openSettingsServer()

describe('email settings', () => {
  test('GET is 404 while none are set (mail goes to the fallback)', async () => {
    const fresh = await world.otherOrganization()
    const body = expectProblem(await getEmail(await api.tokenFor(fresh, 'org_admin')), 404, 'Not found')
    expect(body.detail).toContain('Email settings')
  })

  test('PUT answers the masked settings, never the key; GET answers the same', async () => {
    const response = await putEmail(smtpSettings())
    expect(response.status).toBe(200)
    expect(Object.keys(response.body).sort()).toEqual(['apiKeyLast4', 'fromEmail', 'fromName', 'provider', 'updatedAt'])
    expect(response.body).toMatchObject({
      provider: 'smtp',
      fromEmail: 'desk@example.org',
      fromName: 'Intake Desk',
      apiKeyLast4: smtpUrl.slice(-4),
    })
    expect(response.body.updatedAt).toMatch(ISO_MS)
    expect(JSON.stringify(response.body)).not.toContain(SMTP_PASSWORD)
    const read = await getEmail()
    expect(read.status).toBe(200)
    expect(read.body).toEqual(response.body)
    expect(JSON.stringify(read.body)).not.toContain(SMTP_PASSWORD)
  })

  test('a key left out is the stored one, for its own provider only: PUT keeps it, a test sends with it', async () => {
    const { token } = await organizationWithAdmin()
    const { apiKey: _typed, ...withoutKey } = smtpSettings()
    expect(expectBadRequest(await putEmail(withoutKey, token)).errors?.map((e) => e.path)).toEqual(['/apiKey'])
    expect((await putEmail(smtpSettings(), token)).status).toBe(200)

    const kept = await putEmail({ ...withoutKey, fromName: 'Front Desk' }, token)
    expect(kept.status).toBe(200)
    expect(kept.body).toMatchObject({ fromName: 'Front Desk', apiKeyLast4: smtpUrl.slice(-4) })
    const sent = smtp.received.length
    expect((await testEmail({ ...withoutKey, toEmail: 'someone@example.org' }, token)).status).toBe(200)
    expect(smtp.received.slice(sent)).toMatchObject([{ to: ['someone@example.org'], user: SMTP_USER }])

    // The stored SMTP URL goes to no other provider.
    const elsewhere = { ...withoutKey, provider: 'sendgrid', toEmail: 'someone@example.org' }
    expect(expectBadRequest(await testEmail(elsewhere, token)).errors?.map((e) => e.path)).toEqual(['/apiKey'])
    expect(expectBadRequest(await putEmail({ ...withoutKey, provider: 'postmark' }, token)).errors?.map((e) => e.path)).toEqual(['/apiKey'])
    expect((await getEmail(token)).body).toMatchObject({ provider: 'smtp', fromName: 'Front Desk' })
  })

  test('every provider is accepted with a key of its shape; fromName left out is omitted', async () => {
    const { token } = await organizationWithAdmin()
    const cases = [
      { provider: 'postmark', apiKey: 'postmark-server-token-abcd1234', fromEmail: 'a@example.org' },
      { provider: 'sendgrid', apiKey: 'SG.sendgrid-key-wxyz', fromEmail: 'b@example.org', fromName: 'Desk' },
      { provider: 'ses', apiKey: `AKIAEXAMPLE:${SES_SECRET}:us-east-1`, fromEmail: 'c@example.org' },
      { provider: 'smtp', apiKey: `smtps://${SMTP_USER}:${SMTP_PASSWORD}@mail.example.org:465`, fromEmail: 'd@example.org' },
    ]
    for (const settings of cases) {
      const response = await putEmail(settings, token)
      expect(response.status).toBe(200)
      const { apiKey, ...visible } = settings
      expect(response.body).toEqual({ ...visible, apiKeyLast4: apiKey.slice(-4), updatedAt: response.body.updatedAt })
      expect(JSON.stringify(response.body)).not.toContain(apiKey)
      expect((await getEmail(token)).body).toEqual(response.body)
    }
  })

  test.each([
    ['an unknown provider', { provider: 'mailgun' }, '/provider'],
    ['a provider in capitals', { provider: 'SMTP' }, '/provider'],
    ['no provider', { provider: undefined }, '/provider'],
    ['an smtp key that is an https URL', { apiKey: `https://${SMTP_USER}:${SMTP_PASSWORD}@mail.example.org` }, '/apiKey'],
    ['an smtp key that is not a URL', { apiKey: SMTP_PASSWORD }, '/apiKey'],
    ['an smtp URL without a host', { apiKey: 'smtp://' }, '/apiKey'],
    ['an ses key without a region', { provider: 'ses', apiKey: `AKIAEXAMPLE:${SES_SECRET}` }, '/apiKey'],
    ['an ses key with a made-up region', { provider: 'ses', apiKey: `AKIAEXAMPLE:${SES_SECRET}:moon` }, '/apiKey'],
    ['an ses key with an empty part', { provider: 'ses', apiKey: `:${SES_SECRET}:us-east-1` }, '/apiKey'],
    ['an ses key that is an SMTP URL', { provider: 'ses', apiKey: smtpUrlPlaceholder() }, '/apiKey'],
    ['an empty apiKey', { apiKey: '' }, '/apiKey'],
    ['a blank postmark key', { provider: 'postmark', apiKey: '   ' }, '/apiKey'],
    ['no apiKey for a provider no key is stored for', { provider: 'postmark', apiKey: undefined }, '/apiKey'],
    ['a bad fromEmail', { fromEmail: 'desk at example.org' }, '/fromEmail'],
    ['no fromEmail', { fromEmail: undefined }, '/fromEmail'],
    ['a fromName over 200 characters', { fromName: 'x'.repeat(201) }, '/fromName'],
    ['apiKeyLast4 (answered, not taken)', { apiKeyLast4: '1234' }, '/apiKeyLast4'],
    ['an unknown property', { replyTo: 'x@example.org' }, '/replyTo'],
  ])('%s is 400 Invalid input naming the field, no secret in the answer, and nothing changes', async (_name, fields, field) => {
    const before = await getEmail()
    const body = JSON.parse(JSON.stringify({ ...smtpSettings({ fromName: 'Changed' }), ...fields }))
    const response = await putEmail(body)
    expect(response.status).not.toBe(422)
    expectBadRequest(response, field, 'Bad request')
    for (const secret of [SMTP_PASSWORD, SES_SECRET]) expect(JSON.stringify(response.body)).not.toContain(secret)
    expect(await getEmail()).toMatchObject({ status: before.status, body: before.body })
  })

  test('is 403 for every other role on GET and PUT, and nothing changes', async () => {
    const before = (await getEmail()).body
    for (const name of NON_ADMINS) {
      expectProblem(await getEmail(tokens[name]), 403, 'Forbidden')
      expectProblem(await putEmail(smtpSettings({ fromEmail: 'thief@example.org' }), tokens[name]), 403, 'Forbidden')
    }
    expect((await getEmail()).body).toEqual(before)
  })

  test('another organization sees none of them: its GET stays 404 while this one has settings', async () => {
    expect((await putEmail(smtpSettings())).status).toBe(200)
    expect((await getEmail()).status).toBe(200)
    expectProblem(await getEmail(tokens.otherAdmin), 404, 'Not found')
  })

  test('without a token both are 401', async () => {
    expectProblem(await api.call('GET', EMAIL), 401, 'Unauthorized')
    expectProblem(await api.call('PUT', EMAIL, { body: smtpSettings() }), 401, 'Unauthorized')
  })
})

describe('outgoing mail goes through the organization’s own provider', () => {
  test('an invitation is sent by SMTP (not logged), and its link works', async () => {
    expect((await putEmail(smtpSettings())).status).toBe(200)
    const email = `smtp-invitee-${crypto.randomUUID().slice(0, 8)}@example.org`
    expect((await api.call('POST', '/api/members', { token: tokens.admin, body: { email, role: 'staff' } })).status).toBe(201)

    const message = await deliverUntil(api, () => smtp.received.find((m) => m.to.includes(email)), `the invitation to ${email}`)
    expect(message).toMatchObject({ from: 'desk@example.org', user: SMTP_USER })
    expect(message.headers).toMatch(/^From: "?Intake Desk"? <desk@example\.org>\r$/m)
    const { link, token } = invitationIn(message.body)
    expect(link).toStartWith(`${BASE_URL}/accept-invite?token=`)
    expect(fallbackEmailsTo(api, email)).toEqual([])
    expect(api.logs.join('\n')).not.toContain(token)

    const accepted = await api.call('POST', '/api/auth/accept-invite', { body: { token, password: 'a long enough password' } })
    expect(accepted.status).toBe(200)
  })

  test('another organization without settings still hands its mail to the fallback, not to this provider', async () => {
    const email = `log-invitee-${crypto.randomUUID().slice(0, 8)}@example.org`
    expect((await api.call('POST', '/api/members', { token: tokens.otherAdmin, body: { email, role: 'staff' } })).status).toBe(201)
    const mail = await fallbackInvitationTo(api, email)
    expect(mail.organizationId).toBe(other.organizationId)
    expect(smtp.received.some((m) => m.to.includes(email))).toBe(false)
  })

  test('no secret was ever logged or stored in clear', async () => {
    // Whatever ran before (in any order), plus each way a secret comes in: stored settings of two providers,
    // a refused login, and mail sent with them.
    const { token } = await organizationWithAdmin()
    expect(
      (await putEmail({ provider: 'ses', apiKey: `AKIAEXAMPLE:${SES_SECRET}:us-east-1`, fromEmail: 'c@example.org' }, token)).status,
    ).toBe(200)
    expect((await putEmail(smtpSettings())).status).toBe(200)
    const apiKey = `smtp://${SMTP_USER}:${WRONG_PASSWORD}@127.0.0.1:${smtp.port}`
    expect((await testEmail({ ...smtpSettings(), apiKey, toEmail: 'someone@example.org' })).status).toBe(502)
    const email = `smtp-invitee-${crypto.randomUUID().slice(0, 8)}@example.org`
    expect((await api.call('POST', '/api/members', { token: tokens.admin, body: { email, role: 'staff' } })).status).toBe(201)
    await deliverUntil(api, () => smtp.received.find((m) => m.to.includes(email)), `the invitation to ${email}`)
    const logs = api.logs.join('\n')
    for (const secret of [SMTP_PASSWORD, WRONG_PASSWORD, SES_SECRET]) expect(logs).not.toContain(secret)
    const stored = await api.storedBytes()
    expect(stored.length).toBeGreaterThan(0)
    for (const bytes of stored) {
      for (const secret of [SMTP_PASSWORD, SES_SECRET]) expect(bytes.includes(secret)).toBe(false)
    }
    // The search can find what is there: the invitees' emails are stored in clear.
    expect(stored.some((bytes) => bytes.includes('smtp-invitee-'))).toBe(true)
  })
})

function smtpUrlPlaceholder(): string {
  return `smtp://${SMTP_USER}:${SMTP_PASSWORD}@mail.example.org:587`
}
