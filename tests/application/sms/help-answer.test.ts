import { beforeEach, describe, expect, test } from 'bun:test'
import { createSmsWorld, PUBLIC_BASE_URL, VALID_SIGNATURE, type SmsWorld } from '../sms-world'

// docs/api/organization.md "SMS": HELP and AYUDA answered through ReceiveSms on the in-memory store, the provider faked.
const ORG_NUMBER = '+15557770000'
const OTHER_NUMBER = '+15558880000'
const PHONE = '+15550001111'

let world: SmsWorld
beforeEach(async () => {
  world = await createSmsWorld()
  await world.configureOrganization({ phoneNumber: ORG_NUMBER })
})

let sids = 0

/** Receives `body` from PHONE at `to`, validly signed, a second after the last thing that happened. */
async function receive(body: string, to = ORG_NUMBER): Promise<void> {
  world.clock.advance(1000)
  const params = { From: PHONE, To: to, Body: body, MessageSid: `SMhelp${String(++sids).padStart(28, '0')}` }
  await world.useCases.sms.receive.execute({ url: `${PUBLIC_BASE_URL}/api/webhooks/twilio/sms`, params, signature: VALID_SIGNATURE })
}

const optedOut = async (organizationId: string) => (await world.repositories.smsOptOuts.optedOutAt(organizationId, PHONE)) !== undefined

describe('HELP and AYUDA (docs/api/organization.md "SMS")', () => {
  /** The automatic answers recorded on the need's thread: the outbound texts nobody typed. */
  const answersOn = async (needId: string) =>
    (await world.interactionsOfNeed(needId)).filter((i) => i.direction === 'outbound').map((i) => i.content)
  /** What the provider was handed, once the outbox is sent. */
  const sent = async () => {
    while ((await world.dispatcher.runOnce()) > 0);
    return world.sms.accepted.map(({ from, to, body }) => ({ from, to, body }))
  }

  test('answers once a day per number, in the language asked, on the thread, through the outbox', async () => {
    const need = await world.needFor((await world.constituent({ firstName: 'Ana', phone: PHONE })).id)
    const { name } = (await world.repositories.organizations.findById(world.organizationId))!
    await receive('HELP')
    const [english] = await answersOn(need.id)
    expect(english).toStartWith(`${name}: `)
    expect(english).toContain('Reply STOP')
    expect(await sent()).toEqual([{ from: ORG_NUMBER, to: PHONE, body: english! }])

    await receive('AYUDA')
    expect(await answersOn(need.id)).toEqual([english])
    world.clock.advance(24 * 3_600_000)
    await receive('ayuda')
    const answers = await answersOn(need.id)
    expect(answers).toHaveLength(2)
    expect(answers[1]).toContain('Responda ALTO')
  })

  test('an opted-out number is answered, and each organization answers on its own', async () => {
    const other = await world.otherOrganization()
    const { slug } = (await world.repositories.organizations.findById(other.organizationId))!
    await world.useCases.operations.setOrganizationPhoneNumber.execute(slug, OTHER_NUMBER)
    await receive('STOP')
    await receive('HELP')
    await receive('HELP', OTHER_NUMBER)
    // Sent side by side, in no set order.
    expect((await sent()).map((sms) => `${sms.from} to ${sms.to}`).sort()).toEqual([
      `${ORG_NUMBER} to ${PHONE}`,
      `${OTHER_NUMBER} to ${PHONE}`,
    ])
    expect(await optedOut(world.organizationId)).toBe(true)
    expect(await optedOut(other.organizationId)).toBe(false)
  })
})
