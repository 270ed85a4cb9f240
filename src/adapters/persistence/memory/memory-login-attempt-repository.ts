import type { LoginFailures } from '../../../domain/auth/login-throttle'
import type { LoginAttemptRepository } from '../../../application/ports/repositories/login-attempt-repository'
import { MemoryRepository } from './memory-repository'

export class MemoryLoginAttemptRepository extends MemoryRepository implements LoginAttemptRepository {
  async recordFailure(email: string, address: string, at: Date) {
    this.t.loginFailures.push({ email, address, at })
  }
  async failuresSince(email: string, address: string, since: Date): Promise<LoginFailures> {
    const all = this.t.loginFailures.filter((f) => f.email === email && f.at >= since)
    const fromAddress = all.filter((f) => f.address === address)
    const oldest = (failures: typeof all) => (failures.length > 0 ? new Date(Math.min(...failures.map((f) => f.at.getTime()))) : undefined)
    const oldestFromAddress = oldest(fromAddress)
    const oldestOfAll = oldest(all)
    return {
      fromAddress: fromAddress.length,
      total: all.length,
      ...(oldestFromAddress ? { oldestFromAddress } : {}),
      ...(oldestOfAll ? { oldest: oldestOfAll } : {}),
    }
  }
  async clear(email: string, address: string) {
    this.t.loginFailures = this.t.loginFailures.filter((f) => f.email !== email || f.address !== address)
  }
}
