import { and, eq } from 'drizzle-orm'
import type { SmsOptOutRepository } from '../../../application/ports/repositories/sms-opt-out-repository'
import { SqlRepository } from './sql-repository'

export class SqlSmsOptOutRepository extends SqlRepository implements SmsOptOutRepository {
  async isOptedOut(organizationId: string, phone: string) {
    const rows = await this.db
      .select({ phone: this.tables.smsOptOuts.phone })
      .from(this.tables.smsOptOuts)
      .where(and(eq(this.tables.smsOptOuts.organizationId, organizationId), eq(this.tables.smsOptOuts.phone, phone)))
      .limit(1)
    return rows.length > 0
  }
  async optOut(organizationId: string, phone: string, at: Date) {
    await this.db.insert(this.tables.smsOptOuts).values({ organizationId, phone, optedOutAt: at }).onConflictDoNothing()
  }
  async optIn(organizationId: string, phone: string) {
    await this.db
      .delete(this.tables.smsOptOuts)
      .where(and(eq(this.tables.smsOptOuts.organizationId, organizationId), eq(this.tables.smsOptOuts.phone, phone)))
  }
}
