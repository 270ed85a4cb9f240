import { and, eq, lte } from 'drizzle-orm'
import type { SmsOptOutRepository } from '../../../application/ports/repositories/sms-opt-out-repository'
import { SqlRepository } from './sql-repository'

export class SqlSmsOptOutRepository extends SqlRepository implements SmsOptOutRepository {
  async optedOutAt(organizationId: string, phone: string) {
    const t = this.tables.smsOptOuts
    const [row] = await this.db
      .select({ optedOutAt: t.optedOutAt })
      .from(t)
      .where(and(eq(t.organizationId, organizationId), eq(t.phone, phone)))
      .limit(1)
    return row?.optedOutAt
  }
  async optOut(organizationId: string, phone: string, at: Date) {
    await this.db.insert(this.tables.smsOptOuts).values({ organizationId, phone, optedOutAt: at }).onConflictDoNothing()
  }
  async optIn(organizationId: string, phone: string) {
    await this.db
      .delete(this.tables.smsOptOuts)
      .where(and(eq(this.tables.smsOptOuts.organizationId, organizationId), eq(this.tables.smsOptOuts.phone, phone)))
  }
  async claimHelpAnswer(organizationId: string, phone: string, at: Date, since: Date) {
    const t = this.tables.smsHelpAnswers
    // Inserted, or moved on only when the last answer is older than `since`: the row answers whether this write took the turn.
    const taken = await this.db
      .insert(t)
      .values({ organizationId, phone, answeredAt: at })
      .onConflictDoUpdate({ target: [t.organizationId, t.phone], set: { answeredAt: at }, setWhere: lte(t.answeredAt, since) })
      .returning({ phone: t.phone })
    return taken.length > 0
  }
}
