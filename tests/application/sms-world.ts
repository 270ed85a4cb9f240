import type { EmailSenders } from '../../src/application/messaging/organization-mailer'
import { CreateConstituent } from '../../src/application/constituents/create-constituent'
import { DispatchOutbox } from '../../src/application/messaging/dispatch-outbox'
import { Outbox } from '../../src/application/messaging/outbox'
import { CreateNeed } from '../../src/application/needs/create-need'
import { UpdateNeed } from '../../src/application/needs/update-need'
import type { Repositories } from '../../src/application/ports/repositories'
import type { OutgoingSms, SmsSender, SmsWebhookVerifier } from '../../src/application/ports/sms'
import type { UnitOfWork } from '../../src/application/ports/unit-of-work'
import { SendSms } from '../../src/application/sms/send-sms'
import type { Actor } from '../../src/domain/auth/actor'
import type { Constituent } from '../../src/domain/constituents/constituent'
import type { ContactDetails } from '../../src/domain/constituents/contact'
import { ProviderError } from '../../src/application/ports/provider-error'
import type { OutboxMessage, SmsMessage } from '../../src/domain/messaging/outbox'
import type { Interaction } from '../../src/domain/needs/interaction'
import type { Need, NeedStatus } from '../../src/domain/needs/need'
import { createContainer, PORTS } from '../../src/main/container'
import { FixedClock } from '../support/fixed-clock'
import { cheapPasswords, createWorld, testConfig, type World } from '../support/world'
import { recordingLogger, type LogEntry } from './mail-world'

export const PUBLIC_BASE_URL = 'https://intake.example.org'
export const STATUS_CALLBACK_URL = `${PUBLIC_BASE_URL}/api/webhooks/twilio/status`

export const retryableSms = (reason = 'Twilio answered 503') => new ProviderError('SMS provider error', reason, true)
export const refusedSms = (reason = "Twilio answered 400: The 'To' number is not a valid phone number") =>
  new ProviderError('SMS provider error', reason, false)

/** What the fake provider accepted: what a real one could later be asked about (findSent). */
export interface AcceptedSms {
  id: string
  from: string
  to: string
  body: string
  at: Date
}

/**
 * An SMS provider that records what it is asked to send. Told to, it fails like a real one, or holds
 * sends open until released, so the number of sends in flight at once can be read.
 */
export class FakeSmsSender implements SmsSender {
  /** Every send, failed and held ones too, in the order they were asked. */
  readonly attempts: OutgoingSms[] = []
  /** What it accepted, each with the id it answered. */
  readonly accepted: AcceptedSms[] = []
  /** Every findSent question. */
  readonly lookups: Array<{ from: string; to: string; body: string; since: Date }> = []
  inFlight = 0
  maxInFlight = 0
  private failures: Error[] = []
  private holding = false
  private readonly held: Array<() => void> = []
  private lookupFailure: Error | undefined

  constructor(private readonly clock: FixedClock) {}

  /** The next `times` sends throw `error`. */
  failNext(error: Error, times = 1): void {
    for (let i = 0; i < times; i++) this.failures.push(error)
  }

  /** From now on, sends wait until released. */
  hold(): void {
    this.holding = true
  }

  /** From now on, sends go through at once; those already held stay held until released. */
  letThrough(): void {
    this.holding = false
  }

  /** Lets the oldest `count` held sends go on (all of them by default). */
  release(count = this.held.length): void {
    for (const proceed of this.held.splice(0, count)) proceed()
  }

  /** How many sends are held now. */
  get waiting(): number {
    return this.held.length
  }

  /** A message the provider holds without us having been told its id (a send whose answer was lost). */
  alreadyAccepted(sms: Omit<AcceptedSms, 'at'> & { at?: Date }): void {
    this.accepted.push({ at: this.clock.now(), ...sms })
  }

  /** The next findSent throws `error`. */
  failNextLookup(error: Error): void {
    this.lookupFailure = error
  }

  async send(sms: OutgoingSms): Promise<{ providerMessageId: string }> {
    this.attempts.push(sms)
    this.inFlight++
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
    try {
      if (this.holding) await new Promise<void>((resolve) => this.held.push(resolve))
      const failure = this.failures.shift()
      if (failure) throw failure
      const id = `SM${String(this.accepted.length + 1).padStart(32, '0')}`
      this.accepted.push({ id, from: sms.from, to: sms.to, body: sms.body, at: this.clock.now() })
      return { providerMessageId: id }
    } finally {
      this.inFlight--
    }
  }

  async findSent(query: { from: string; to: string; body: string; since: Date }): Promise<string[]> {
    this.lookups.push(query)
    const failure = this.lookupFailure
    this.lookupFailure = undefined
    if (failure) throw failure
    return this.accepted
      .filter((a) => a.from === query.from && a.to === query.to && a.body === query.body && a.at >= query.since)
      .map((a) => a.id)
  }
}

export const VALID_SIGNATURE = 'valid-signature'

/** Trusts exactly one signature, and remembers what it was asked. */
export class FakeWebhookVerifier implements SmsWebhookVerifier {
  readonly checked: Array<{ url: string; params: Record<string, string>; signature: string | undefined }> = []
  isAuthentic(url: string, params: Record<string, string>, signature: string | undefined): boolean {
    this.checked.push({ url, params, signature })
    return signature === VALID_SIGNATURE
  }
}

/** The outbox, remembering the id of every text it queued, so tests can read the message back. */
class RecordingOutbox extends Outbox {
  readonly smsIds: string[] = []
  override async sms(r: Repositories, organizationId: string, sms: SmsMessage): Promise<string> {
    const id = await super.sms(r, organizationId, sms)
    this.smsIds.push(id)
    return id
  }
}

/**
 * Waits in real time until `condition` holds, for sends started by a pass that is not awaited: as long as it
 * takes, up to 10 s (a busy machine may take far longer than the few ms these usually need).
 */
export async function until(condition: () => boolean, what = 'the condition'): Promise<void> {
  for (const giveUp = Date.now() + 10_000; !condition() && Date.now() < giveUp; ) await Bun.sleep(1)
  if (!condition()) throw new Error(`timed out waiting for ${what}`)
}

export interface SmsWorld extends World {
  sms: FakeSmsSender
  verifier: FakeWebhookVerifier
  logs: LogEntry[]
  dispatcher: DispatchOutbox
  /** OUTBOX_LEASE_MS as the dispatcher uses it. */
  leaseMs: number
  /** Sets the organization's SMS number (and optionally its maxConcurrency) straight in the store. */
  configureOrganization(settings: { phoneNumber?: string; maxConcurrency?: number }): Promise<void>
  /** Registers a constituent through CreateConstituent, as the admin. */
  constituent(details?: ContactDetails): Promise<Constituent>
  /** Creates a need of the default partner (or `partnerId`) for the constituent through CreateNeed, a minute later. */
  needFor(constituentId: string | undefined, options?: { partnerId?: string; status?: NeedStatus }): Promise<Need>
  /** Moves a need to another status through UpdateNeed, as the admin. */
  setStatus(need: Need, status: NeedStatus): Promise<void>
  /** SendSms as the actor (the admin by default). */
  send(needId: string, body?: string, actor?: Actor): Promise<{ interactionId: string }>
  /** SendSms as the admin, answering the outbox message's id too. */
  queue(needId: string, body?: string): Promise<{ interactionId: string; outboxId: string }>
  /** The outbox message as stored. */
  outboxMessage(id: string): Promise<OutboxMessage>
  interaction(id: string): Promise<Interaction | undefined>
  /** The interactions of a need, oldest first. */
  interactionsOfNeed(needId: string): Promise<Interaction[]>
}

export interface SmsWorldOptions {
  env?: Record<string, string>
  senderNumberRequired?: boolean
  /** The email providers' senders (without them, mail goes to the log fallback, which writes none of it). */
  emailSenders?: EmailSenders
  /** Stands between the use cases and the store's unit of work (to make a transaction fail). */
  unitOfWork?: (store: UnitOfWork) => UnitOfWork
}

/** The in-memory world with a fake SMS provider and a fake webhook verifier behind the ports. */
export async function createSmsWorld(options: SmsWorldOptions = {}): Promise<SmsWorld> {
  const config = testConfig({ PUBLIC_BASE_URL, ...options.env })
  const clock = new FixedClock()
  const { logs, logger } = recordingLogger()
  const container = createContainer(config, { clock, passwords: cheapPasswords(), logger })
  const sms = new FakeSmsSender(clock)
  const verifier = new FakeWebhookVerifier()
  container.rebind(PORTS.sms).toConstantValue(sms)
  container.rebind(PORTS.smsWebhooks).toConstantValue(verifier)
  const outbox = new RecordingOutbox(clock, container.get(PORTS.ids))
  container.rebind(Outbox).toConstantValue(outbox)
  if (options.senderNumberRequired !== undefined) container.rebind(PORTS.senderNumberRequired).toConstantValue(options.senderNumberRequired)
  if (options.emailSenders) container.rebind(PORTS.emailSenders).toConstantValue(options.emailSenders)
  if (options.unitOfWork) {
    const wrapped = options.unitOfWork(container.get(PORTS.unitOfWork))
    container.rebind(PORTS.unitOfWork).toConstantValue(wrapped)
  }
  const world = await createWorld(config, container, clock)
  const unitOfWork = container.get(PORTS.unitOfWork)
  return {
    ...world,
    sms,
    verifier,
    logs,
    dispatcher: container.get(DispatchOutbox),
    leaseMs: container.get(PORTS.dispatchOptions).leaseMs,
    async configureOrganization(settings) {
      await unitOfWork.run(async (r) => {
        const organization = (await r.organizations.findById(world.organizationId))!
        await r.organizations.update({ ...organization, ...settings })
      })
    },
    constituent: (details = { firstName: 'Ana', phone: '+15550001111' }) => container.get(CreateConstituent).execute(world.admin, details),
    async needFor(constituentId, needOptions = {}) {
      clock.advance(60_000)
      return container.get(CreateNeed).execute(world.admin, {
        partnerId: needOptions.partnerId ?? world.defaultPartner.id,
        ...(constituentId ? { constituentId } : {}),
        ...(needOptions.status ? { status: needOptions.status } : {}),
      })
    },
    async setStatus(need, status) {
      await container.get(UpdateNeed).execute(world.admin, need.id, { status })
    },
    send: (needId, body = 'Your box is ready for pickup', actor = world.admin) => container.get(SendSms).execute(actor, needId, body),
    async queue(needId, body = 'Your box is ready for pickup') {
      const { interactionId } = await container.get(SendSms).execute(world.admin, needId, body)
      return { interactionId, outboxId: outbox.smsIds.at(-1)! }
    },
    outboxMessage: async (id) => (await world.repositories.outbox.findById(id))!,
    interaction: (id) => world.repositories.interactions.findById(world.organizationId, id),
    interactionsOfNeed: async (needId) =>
      (await world.repositories.interactions.listByNeed(world.organizationId, needId, { page: 1, limit: 100 })).items,
  }
}
