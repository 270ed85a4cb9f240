import { and, count, eq, gte, min, sql } from 'drizzle-orm'
import type { LoginAttemptRepository } from '../../../application/ports/repositories/login-attempt-repository'
import type { LoginFailures } from '../../../domain/auth/login-throttle'
import { SqlRepository } from './sql-repository'

export class SqlLoginAttemptRepository extends SqlRepository implements LoginAttemptRepository {
  async recordFailure(email: string, address: string, at: Date) {
    await this.db.insert(this.tables.loginFailures).values({ email, address, at })
  }
  async failuresSince(email: string, address: string, since: Date): Promise<LoginFailures> {
    const t = this.tables.loginFailures
    const fromAddress = sql`${t.address} = ${address}`
    const [row] = await this.db
      .select({
        total: count(),
        oldest: min(t.at),
        fromAddress: sql<number>`sum(case when ${fromAddress} then 1 else 0 end)`.mapWith(Number),
        oldestFromAddress: sql<Date | null>`min(case when ${fromAddress} then ${t.at} end)`.mapWith(t.at),
      })
      .from(t)
      .where(and(eq(t.email, email), gte(t.at, since)))
    return {
      total: row?.total ?? 0,
      fromAddress: row?.fromAddress ?? 0,
      ...(row?.oldest ? { oldest: row.oldest } : {}),
      ...(row?.oldestFromAddress ? { oldestFromAddress: row.oldestFromAddress } : {}),
    }
  }
  async clear(email: string, address: string) {
    await this.db
      .delete(this.tables.loginFailures)
      .where(and(eq(this.tables.loginFailures.email, email), eq(this.tables.loginFailures.address, address)))
  }
}
