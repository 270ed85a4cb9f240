import { UNIQUE_CONFLICTS } from '../../../application/ports/repositories'
import {
  EVERY_ORGANIZATION,
  type AttachedTo,
  type InteractionRepository,
  type SendScope,
} from '../../../application/ports/repositories/interaction-repository'
import { EARLY_STATUS_KEPT_MS, type DeliveryStatus } from '../../../domain/messaging/sms'
import { ConflictError } from '../../../domain/errors'
import type { Interaction, InteractionChannel } from '../../../domain/needs/interaction'
import type { Constituent } from '../../../domain/constituents/constituent'
import { mailboxOf } from '../../../domain/messaging/mailbox'
import { copy } from './memory-store'
import { newestFirst, type PageRequest } from '../../../domain/shared/page'
import type { TextCount } from '../../../domain/reports/text-figures'
import { MemoryRepository, inOrganization, page, tallyOf } from './memory-repository'

export class MemoryInteractionRepository extends MemoryRepository implements InteractionRepository {
  async insert(interaction: Interaction) {
    this.assertProviderIdFree(interaction.providerMessageId, interaction.id)
    this.t.interactions.push(copy(interaction))
  }
  /** The unique index of the SQL schema: one provider message is one interaction. */
  private assertProviderIdFree(providerMessageId: string | undefined, ownId: string) {
    if (providerMessageId && this.t.interactions.some((i) => i.providerMessageId === providerMessageId && i.id !== ownId)) {
      throw new ConflictError(UNIQUE_CONFLICTS.providerMessageId)
    }
  }
  async listByNeed(organizationId: string, needId: string, request: PageRequest) {
    return page(
      this.t.interactions.filter((i) => i.organizationId === organizationId && i.needId === needId).sort((a, b) => -newestFirst(a, b)),
      request,
    )
  }
  async findById(organizationId: string, id: string) {
    return inOrganization(
      this.t.interactions.find((i) => i.id === id),
      organizationId,
    )
  }
  async findByProviderMessageId(providerMessageId: string) {
    return copy(this.t.interactions.find((i) => i.providerMessageId === providerMessageId))
  }
  async setDelivery(organizationId: string, id: string, status: DeliveryStatus, providerMessageId: string | undefined, error?: string) {
    const interaction = this.t.interactions.find((i) => i.id === id && i.organizationId === organizationId)
    if (!interaction) return {}
    this.assertProviderIdFree(providerMessageId, id)
    interaction.deliveryStatus = status
    if (providerMessageId) interaction.providerMessageId = providerMessageId
    if (error) interaction.deliveryError = error
    return interaction.needId ? { needId: interaction.needId } : {}
  }
  async listUnattached(organizationId: string, request: PageRequest) {
    const unattached = this.t.interactions.filter(
      (i) => i.organizationId === organizationId && !i.needId && i.channel === 'sms' && i.direction === 'inbound',
    )
    return page(unattached.sort(newestFirst), request)
  }
  async attachTextsOf(organizationId: string, phone: string, to: AttachedTo) {
    const moved = this.t.interactions.filter((i) => i.organizationId === organizationId && !i.needId && isTextWith(i, phone))
    for (const i of moved)
      Object.assign(i, { needId: to.needId, partnerId: to.partnerId }, to.constituentId ? { constituentId: to.constituentId } : {})
    return moved.sort((a, b) => -newestFirst(a, b)).map((i) => i.id)
  }
  async tallyRepliesTo(organizationId: string, phone: string, since: Date) {
    const replies = this.t.interactions.filter(
      (i) => i.organizationId === organizationId && i.recipient === phone && !i.needId && i.createdAt >= since,
    )
    return tallyOf(replies.map((i) => i.createdAt))
  }
  async rememberEarlyStatus(providerMessageId: string, status: DeliveryStatus, at: Date) {
    for (const [id, early] of this.t.earlySmsStatuses) {
      if (early.at.getTime() < at.getTime() - EARLY_STATUS_KEPT_MS) this.t.earlySmsStatuses.delete(id)
    }
    this.t.earlySmsStatuses.set(providerMessageId, { status, at: new Date(at) })
  }
  async takeEarlyStatus(providerMessageId: string) {
    const early = this.t.earlySmsStatuses.get(providerMessageId)
    this.t.earlySmsStatuses.delete(providerMessageId)
    return early?.status
  }
  async forgetInboundSenders(organizationId: string, constituentId: string, needIds: readonly string[]) {
    for (const i of this.t.interactions) {
      const theirs = i.constituentId === constituentId || (i.needId !== undefined && needIds.includes(i.needId))
      if (i.organizationId !== organizationId || !theirs) continue
      if (i.channel === 'sms' && i.direction === 'inbound') i.senderIdentifier = ''
      // The number a reply went to is theirs too.
      delete i.recipient
    }
  }
  async clearContentOfNeeds(organizationId: string, needIds: readonly string[]) {
    for (const i of this.t.interactions) {
      if (i.organizationId === organizationId && i.needId !== undefined && needIds.includes(i.needId)) delete i.content
    }
  }
  async tallyTextsTo(scope: SendScope, phone: string, since: Date) {
    return this.tallyOutbound(scope, 'sms', (c) => c.phone === phone, since)
  }
  async countTexts(organizationId: string, since: Date, until: Date, partnerId?: string) {
    const counts = new Map<string, TextCount>()
    for (const i of this.t.interactions) {
      if (i.organizationId !== organizationId || i.channel !== 'sms' || i.createdAt < since || i.createdAt >= until) continue
      if (partnerId !== undefined && i.partnerId !== partnerId) continue
      const direction = i.direction ?? 'inbound'
      const key = `${direction}|${i.deliveryStatus}`
      const kept = counts.get(key) ?? { direction, ...(i.deliveryStatus ? { deliveryStatus: i.deliveryStatus } : {}), texts: 0 }
      counts.set(key, { ...kept, texts: kept.texts + 1 })
    }
    return [...counts.values()]
  }
  async tallyMailsTo(scope: SendScope, email: string, since: Date) {
    const mailbox = mailboxOf(email)
    return this.tallyOutbound(scope, 'email', (c) => c.email !== undefined && mailboxOf(c.email) === mailbox, since)
  }
  private tallyOutbound(scope: SendScope, channel: InteractionChannel, isTo: (c: Constituent) => boolean, since: Date) {
    const constituentOf = (needId: string | undefined) => (needId ? this.t.needs.get(needId)?.constituentId : undefined)
    const inScope = (organizationId: string) => scope === EVERY_ORGANIZATION || organizationId === scope
    const sent = this.t.interactions.filter((i) => {
      if (!inScope(i.organizationId) || i.channel !== channel || i.direction !== 'outbound' || i.createdAt < since) return false
      const constituent = this.t.constituents.get(constituentOf(i.needId) ?? '')
      return constituent?.organizationId === i.organizationId && isTo(constituent)
    })
    return tallyOf(sent.map((i) => i.createdAt))
  }
}

/** A text from this number, or a reply to it. */
function isTextWith(i: Interaction, phone: string): boolean {
  if (i.channel !== 'sms') return false
  return i.direction === 'inbound' ? i.senderIdentifier === phone : i.recipient === phone
}
