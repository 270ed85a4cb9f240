import { describe, expect, test } from 'bun:test'
import {
  ACCOUNT_SID,
  admin,
  api,
  clock,
  drain,
  expectTwiml,
  fake,
  inbound,
  interaction,
  needFor,
  newPhone,
  openSmsServer,
  ORG_NUMBER,
  queued,
  webhook,
  world,
} from './sms-support'

// docs/api/needs.md "Reports" and docs/observability.md "Metrics": texts received, sent, delivered and failed, per
// organization in the needs report and as totals in GET /metrics, over real HTTP through Twilio's signed webhooks.
openSmsServer()

interface Texts {
  received: number
  sent: number
  delivered: number
  failed: number
}

const today = () => clock.now().toISOString().slice(0, 10)

async function reported(token = admin): Promise<Texts> {
  const response = await api.call<{ texts: Texts }>('GET', `/api/reports/needs?from=${today()}&to=${today()}`, { token })
  expect(response.status).toBe(200)
  return response.body.texts
}

/** The samples of intake_texts_total, by event. */
async function scraped(): Promise<Texts> {
  const response = await api.call('GET', '/metrics')
  expect(response.status).toBe(200)
  const sample = (event: string) =>
    Number(String(response.body).match(new RegExp(`^intake_texts_total\\{event="${event}"\\} (\\d+)$`, 'm'))?.[1])
  return { received: sample('received'), sent: sample('sent'), delivered: sample('delivered'), failed: sample('failed') }
}

const rise = (before: Texts, after: Texts) => ({
  received: after.received - before.received,
  sent: after.sent - before.sent,
  delivered: after.delivered - before.delivered,
  failed: after.failed - before.failed,
})

async function reportDelivered(needId: string, interactionId: string, to: string): Promise<void> {
  const sid = (await interaction(needId, interactionId))!.providerMessageId!
  const params = {
    AccountSid: ACCOUNT_SID,
    MessageSid: sid,
    SmsSid: sid,
    MessageStatus: 'delivered',
    SmsStatus: 'delivered',
    From: ORG_NUMBER,
    To: to,
  }
  expect((await webhook('/api/webhooks/twilio/status', params)).status).toBe(204)
}

describe('texts counted', () => {
  test('the report and /metrics count texts received, sent, delivered and failed; a webhook sent again counts once', async () => {
    const [reportBefore, metricsBefore] = [await reported(), await scraped()]
    const [phone, unreachable] = [newPhone(), newPhone()]
    const needId = await needFor(phone)
    const params = inbound(phone, 'Is my box ready?')
    expectTwiml(await webhook('/api/webhooks/twilio/sms', params))
    expectTwiml(await webhook('/api/webhooks/twilio/sms', params))
    const delivered = await queued(needId, 'It is')
    await queued(needId, 'Come on Monday')
    fake.answer(unreachable, 400)
    await queued(await needFor(unreachable), 'Never arrives')
    await drain()
    await reportDelivered(needId, delivered, phone)

    // Sent counts what the provider took: the delivered text and the one still "sent".
    expect(rise(reportBefore, await reported())).toEqual({ received: 1, sent: 2, delivered: 1, failed: 1 })
    expect(rise(metricsBefore, await scraped())).toEqual({ received: 1, sent: 2, delivered: 1, failed: 1 })
  })

  test("the report counts one organization's texts, and a partner role its own partner's", async () => {
    const other = await world.otherOrganization()
    const otherAdmin = await api.tokenFor(other, 'org_admin')
    const partner = await world.partner({ name: 'Texting partner' })
    const partnerAdmin = await api.tokenFor(world, 'partner_admin', { partnerId: partner.id })
    const [ours, theirs] = [await reported(), await reported(otherAdmin)]
    const partners = await reported(partnerAdmin)

    await queued(await needFor(newPhone()), 'Hello')
    await drain()

    expect(rise(ours, await reported())).toEqual({ received: 0, sent: 1, delivered: 0, failed: 0 })
    expect(await reported(otherAdmin)).toEqual(theirs)
    expect(await reported(partnerAdmin)).toEqual(partners)
  })
})
