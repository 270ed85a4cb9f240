import { beforeAll } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { LogEmailSender } from '../../../src/adapters/messaging/log-email-sender'
import { DispatchOutbox } from '../../../src/application/messaging/dispatch-outbox'
import type { AuditAction, AuditRecordType } from '../../../src/domain/audit/audit-event'
import type { Actor } from '../../../src/domain/auth/actor'
import { createContainer, PORTS } from '../../../src/main/container'
import { CapturedMail } from '../../support/captured-mail'
import { LoopbackTransport } from '../../support/federation-loopback'
import { FixedClock } from '../../support/fixed-clock'
import { cheapPasswords, createWorld, testConfig, type World } from '../../support/world'
import { recordingLogger } from '../mail-world'
import { FakeWebhookVerifier } from '../sms-world'

// What the audit trail tests share (audit-trail.test.ts, audit-trail-contents.test.ts, and the scenarios of
// audit-trail-scenarios.ts): an organization of each file's own on the in-memory adapters, whose mail the
// fallback keeps for the scenarios to read their links from, and the records the scenarios act on.
// Each file calls `openAuditWorld()`; its tests and the scenarios reach the world through the bindings below.

export let world: World
let fallback: CapturedMail
export let adminEmail: string
export let slug: string

/** Before the tests of the file: the organization, its container and the mail of its fallback. */
export function openAuditWorld(): void {
  beforeAll(async () => {
    const config = testConfig({ PUBLIC_BASE_URL: 'https://intake.example.org' })
    const clock = new FixedClock()
    const { logger } = recordingLogger()
    fallback = new CapturedMail(new LogEmailSender(logger))
    const container = createContainer(config, { clock, passwords: cheapPasswords(), logger, fallbackEmail: fallback })
    container.rebind(PORTS.smsWebhooks).toConstantValue(new FakeWebhookVerifier())
    // Pairings reach another organization of this world, as if it were on another instance.
    container.rebind(PORTS.federationTransport).toConstantValue(new LoopbackTransport(() => world.useCases.federation))
    world = await createWorld(config, container, clock)
    adminEmail = (await world.repositories.members.findById(world.organizationId, world.admin.memberId))!.email
    slug = (await world.repositories.organizations.findById(world.organizationId))!.slug
  })
}

export const u = () => world.useCases

/** The one-time token of the newest email sent to `to` (the organization has no email settings: the fallback's). */
export async function tokenMailedTo(to: string): Promise<string> {
  // Every round the worker would make: one round claims only the organization's oldest few messages, and
  // earlier scenarios may have left more than that.
  await world.container.get(PORTS.deferredWork).settled()
  for (let round = 0; round < 50 && (await world.container.get(DispatchOutbox).runOnce()) > 0; round++);
  const token = /token=([A-Za-z0-9_-]+)/.exec(String(fallback.to(to).at(-1)?.text))?.[1]
  if (!token) throw new Error(`no link mailed to ${to}`)
  return token
}

export async function aConstituent(fields: Record<string, string> = {}) {
  return u().constituents.create.execute(world.admin, {
    firstName: 'Ana',
    lastName: `L${randomUUID().slice(0, 6)}`,
    phone: '+15035550101',
    ...fields,
  })
}

export async function aNeed(actor: Actor = world.admin, constituentId?: string) {
  return u().needs.create.execute(actor, {
    partnerId: world.defaultPartner.id,
    customFields: {},
    ...(constituentId ? { constituentId } : {}),
  })
}

/** Disabled: deliveries queued for it would take the organization's outbox slots from the mail other scenarios read. */
export async function aWebhookEndpoint() {
  return u().webhooks.create.execute(world.admin, { url: 'http://127.0.0.1:9/hook', events: ['need.created'], enabled: false })
}

export async function anInvitedMember() {
  const email = `m-${randomUUID().slice(0, 8)}@example.org`
  const member = await u().members.invite.execute(world.admin, { email, role: 'staff' })
  return { ...member, email }
}

/**
 * What a scenario expects to find in the trail: by whom (absent: nobody logged in), what, of which record,
 * in which organization (absent: the world's).
 */
export interface Expected {
  organizationId?: string
  memberId?: string
  action: AuditAction
  recordType: AuditRecordType
  recordId: string
}

export const byAdmin = (action: AuditAction, recordType: AuditRecordType, recordId: string): Expected => ({
  memberId: world.admin.memberId,
  action,
  recordType,
  recordId,
})
