import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lt, min, or, sql, type SQL } from 'drizzle-orm'
import {
  EVERY_ORGANIZATION,
  type AttachedTo,
  type InteractionRepository,
  type SendScope,
} from '../../../application/ports/repositories/interaction-repository'
import { EARLY_STATUS_KEPT_MS, type DeliveryStatus } from '../../../domain/messaging/sms'
import type { Interaction, InteractionChannel } from '../../../domain/needs/interaction'
import { mailboxOf } from '../../../domain/messaging/mailbox'
import type { Tally } from '../../../domain/messaging/send-limits'
import { newestFirst, offsetOf, type PageRequest } from '../../../domain/shared/page'
import type { TextCount } from '../../../domain/reports/text-figures'
import type * as schema from '../sqlite/schema'
import { SqlRepository, nullable, present } from './sql-repository'

function toInteraction(row: typeof schema.interactions.$inferSelect): Interaction {
  const { channel, direction, deliveryStatus, ...rest } = present(row)
  return {
    ...rest,
    channel: channel as InteractionChannel,
    ...(direction ? { direction: direction as 'inbound' | 'outbound' } : {}),
    ...(deliveryStatus ? { deliveryStatus: deliveryStatus as DeliveryStatus } : {}),
  }
}

export class SqlInteractionRepository extends SqlRepository implements InteractionRepository {
  async insert(i: Interaction) {
    // Prepared: every note and text is one, and building an insert costs more than running it. Nobody reads
    // its result: sent on with what follows, a provider id already on file still fails the unit with the 409.
    await this.unread(
      this.conflictOnUnique(
        this.preparedInsert('interaction_insert', this.tables.interactions, {
          ...i,
          partnerId: nullable(i.partnerId),
          needId: nullable(i.needId),
          constituentId: nullable(i.constituentId),
          direction: nullable(i.direction),
          content: nullable(i.content),
          deliveryStatus: nullable(i.deliveryStatus),
          providerMessageId: nullable(i.providerMessageId),
          sentByMemberId: nullable(i.sentByMemberId),
          deliveryError: nullable(i.deliveryError),
          recipient: nullable(i.recipient),
        }),
      ),
    )
  }
  async listByNeed(organizationId: string, needId: string, page: PageRequest) {
    const i = this.tables.interactions
    const where = and(eq(i.organizationId, organizationId), eq(i.needId, needId))
    const rows = await this.db.select().from(i).where(where).orderBy(asc(i.createdAt), asc(i.id)).limit(page.limit).offset(offsetOf(page))
    const [total] = await this.db.select({ n: count() }).from(i).where(where)
    return { items: rows.map(toInteraction), total: total?.n ?? 0 }
  }
  async findById(organizationId: string, id: string) {
    const row = await this.findInOrganization(this.tables.interactions, organizationId, id)
    return row ? toInteraction(row) : undefined
  }
  async findByProviderMessageId(providerMessageId: string) {
    const [row] = await this.db
      .select()
      .from(this.tables.interactions)
      .where(eq(this.tables.interactions.providerMessageId, providerMessageId))
      .limit(1)
    return row ? toInteraction(row) : undefined
  }
  async setDelivery(organizationId: string, id: string, status: DeliveryStatus, providerMessageId: string | undefined, error?: string) {
    const i = this.tables.interactions
    const [row] = await this.conflictOnUnique(
      this.db
        .update(i)
        .set({ deliveryStatus: status, ...(providerMessageId ? { providerMessageId } : {}), ...(error ? { deliveryError: error } : {}) })
        .where(and(eq(i.organizationId, organizationId), eq(i.id, id)))
        .returning({ needId: i.needId }),
    )
    return row?.needId ? { needId: row.needId } : {}
  }
  async listUnattached(organizationId: string, page: PageRequest) {
    const i = this.tables.interactions
    // The condition of the index interactions_unattached, written alike so the planner takes it.
    const where = and(
      eq(i.organizationId, organizationId),
      sql`${i.needId} IS NULL AND ${i.channel} = 'sms' AND ${i.direction} = 'inbound'`,
    )
    const rows = await this.db.select().from(i).where(where).orderBy(desc(i.createdAt), desc(i.id)).limit(page.limit).offset(offsetOf(page))
    const [total] = await this.db.select({ n: count() }).from(i).where(where)
    return { items: rows.map(toInteraction), total: total?.n ?? 0 }
  }
  async attachTextsOf(organizationId: string, phone: string, to: AttachedTo) {
    const i = this.tables.interactions
    const onNoNeed = sql`${i.needId} IS NULL AND ${i.channel} = 'sms'`
    const rows = await this.db
      .update(i)
      .set({ needId: to.needId, partnerId: to.partnerId, ...(to.constituentId ? { constituentId: to.constituentId } : {}) })
      .where(
        and(
          eq(i.organizationId, organizationId),
          onNoNeed,
          or(and(eq(i.direction, 'inbound'), eq(i.senderIdentifier, phone)), and(eq(i.direction, 'outbound'), eq(i.recipient, phone))),
        ),
      )
      .returning({ id: i.id, createdAt: i.createdAt })
    return rows.sort((a, b) => -newestFirst(a, b)).map((row) => row.id)
  }
  async tallyRepliesTo(organizationId: string, phone: string, since: Date): Promise<Tally> {
    const i = this.tables.interactions
    const [row] = await this.db
      .select({ count: count(), oldest: min(i.createdAt) })
      .from(i)
      .where(and(eq(i.organizationId, organizationId), eq(i.recipient, phone), isNull(i.needId), gte(i.createdAt, since)))
    return { count: row?.count ?? 0, ...(row?.oldest ? { oldest: row.oldest } : {}) }
  }
  async forgetInboundSenders(organizationId: string, constituentId: string, needIds: readonly string[]) {
    const i = this.tables.interactions
    const theirs =
      needIds.length > 0 ? or(eq(i.constituentId, constituentId), inArray(i.needId, [...needIds])) : eq(i.constituentId, constituentId)
    await this.db
      .update(i)
      .set({ senderIdentifier: '' })
      .where(and(eq(i.organizationId, organizationId), eq(i.channel, 'sms'), eq(i.direction, 'inbound'), theirs))
    // The number a reply went to is theirs too.
    await this.db
      .update(i)
      .set({ recipient: null })
      .where(and(eq(i.organizationId, organizationId), isNotNull(i.recipient), theirs))
  }
  async clearContentOfNeeds(organizationId: string, needIds: readonly string[]) {
    if (needIds.length === 0) return
    const i = this.tables.interactions
    await this.db
      .update(i)
      .set({ content: null })
      .where(and(eq(i.organizationId, organizationId), inArray(i.needId, [...needIds])))
  }
  async rememberEarlyStatus(providerMessageId: string, status: DeliveryStatus, at: Date) {
    const t = this.tables.earlySmsStatuses
    await this.db.delete(t).where(lt(t.receivedAt, new Date(at.getTime() - EARLY_STATUS_KEPT_MS)))
    await this.db
      .insert(t)
      .values({ providerMessageId, status, receivedAt: at })
      .onConflictDoUpdate({ target: t.providerMessageId, set: { status, receivedAt: at } })
  }
  async takeEarlyStatus(providerMessageId: string) {
    const t = this.tables.earlySmsStatuses
    const rows = await this.db.delete(t).where(eq(t.providerMessageId, providerMessageId)).returning({ status: t.status })
    return rows[0]?.status as DeliveryStatus | undefined
  }
  tallyTextsTo(scope: SendScope, phone: string, since: Date): Promise<Tally> {
    return this.tallyOutbound(scope, 'sms', eq(this.tables.constituents.phone, phone), since)
  }
  async countTexts(organizationId: string, since: Date, until: Date, partnerId?: string): Promise<TextCount[]> {
    const i = this.tables.interactions
    // One range of interactions_texts_by_time, whose condition is the literal 'sms' written here (a bound value would
    // not match it): the period's texts of the organization, not its other messages.
    const rows = await this.db
      .select({ direction: i.direction, deliveryStatus: i.deliveryStatus, texts: count() })
      .from(i)
      .where(
        and(
          eq(i.organizationId, organizationId),
          sql`${i.channel} = 'sms'`,
          gte(i.createdAt, since),
          lt(i.createdAt, until),
          partnerId === undefined ? undefined : eq(i.partnerId, partnerId),
        ),
      )
      .groupBy(i.direction, i.deliveryStatus)
    return rows.map(({ direction, deliveryStatus, texts }) => ({
      direction: direction === 'outbound' ? 'outbound' : 'inbound',
      ...(deliveryStatus ? { deliveryStatus: deliveryStatus as DeliveryStatus } : {}),
      texts,
    }))
  }
  tallyMailsTo(scope: SendScope, email: string, since: Date): Promise<Tally> {
    // By the mailbox, as duplicate detection keys it (constituents_by_email).
    return this.tallyOutbound(scope, 'email', eq(this.tables.constituents.emailKey, mailboxOf(email)), since)
  }
  private async tallyOutbound(scope: SendScope, channel: InteractionChannel, contact: SQL, since: Date): Promise<Tally> {
    const { interactions: i, needs: n, constituents: c } = this.tables
    // The needs of the people with this contact, in every organization: from the contact
    // (constituents_by_phone or _by_email, which lead with it) to each person's needs (needs_by_constituent).
    const theirNeeds = this.db
      .select({ organizationId: n.organizationId, id: n.id })
      .from(c)
      .innerJoin(n, and(eq(n.organizationId, c.organizationId), eq(n.constituentId, c.id)))
      .where(contact)
    // Then each need's recent messages (interactions_by_need), the scope set on the messages. Written as one
    // join, or with the scope set on the people, SQLite's planner (which has no statistics) walks the
    // organization's messages instead (sqlite-send-limit-plans.test.ts).
    const [row] = await this.db
      .select({ count: count(), oldest: min(i.createdAt) })
      .from(i)
      .where(
        and(
          scope === EVERY_ORGANIZATION ? undefined : eq(i.organizationId, scope),
          sql`(${i.organizationId}, ${i.needId}) in ${theirNeeds}`,
          eq(i.channel, channel),
          eq(i.direction, 'outbound'),
          gte(i.createdAt, since),
        ),
      )
    return { count: row?.count ?? 0, ...(row?.oldest ? { oldest: row.oldest } : {}) }
  }
}
