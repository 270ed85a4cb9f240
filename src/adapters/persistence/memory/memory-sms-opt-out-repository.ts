import type { SmsOptOutRepository } from '../../../application/ports/repositories/sms-opt-out-repository'
import { MemoryRepository } from './memory-repository'

export class MemorySmsOptOutRepository extends MemoryRepository implements SmsOptOutRepository {
  private key(organizationId: string, phone: string) {
    return `${organizationId}|${phone}`
  }
  async isOptedOut(organizationId: string, phone: string) {
    return this.t.smsOptOuts.has(this.key(organizationId, phone))
  }
  async optOut(organizationId: string, phone: string, at: Date) {
    if (!this.t.smsOptOuts.has(this.key(organizationId, phone))) this.t.smsOptOuts.set(this.key(organizationId, phone), at)
  }
  async optIn(organizationId: string, phone: string) {
    this.t.smsOptOuts.delete(this.key(organizationId, phone))
  }
}
