import { PORTS } from '../../../src/main/container'
import { aNeed, byAdmin, type Expected } from './audit-trail-support'
import { u, world } from './audit-trail-support'

// The audited use cases of texts on no need (docs/api/organization.md "Messages"), as audit-trail-scenarios.ts lists the others.

/** A text on no need from a number of its own, as the webhook keeps it. */
async function aMessage(): Promise<string> {
  const id = crypto.randomUUID()
  const from = `+1503${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`
  await world.container.get(PORTS.unitOfWork).run((r) =>
    r.interactions.insert({
      id,
      organizationId: world.organizationId,
      channel: 'sms',
      direction: 'inbound',
      senderIdentifier: from,
      content: 'Hello?',
      createdAt: world.clock.now(),
    }),
  )
  return id
}

export const MESSAGE_SCENARIOS: Record<string, () => Promise<Expected>> = {
  'sms.attach': async () => {
    const [message, need] = await Promise.all([aMessage(), aNeed()])
    await u().sms.attach.execute(world.admin, message, need.id)
    return byAdmin('update', 'interaction', message)
  },
  'sms.startNeed': async () => {
    const message = await aMessage()
    const need = await u().sms.startNeed.execute(world.admin, message, { partnerId: world.defaultPartner.id })
    return byAdmin('create', 'need', need.id)
  },
  'sms.reply': async () => {
    const message = await aMessage()
    await u().sms.reply.execute(world.admin, message, 'Who is this?')
    return byAdmin('send_sms', 'interaction', message)
  },
}
