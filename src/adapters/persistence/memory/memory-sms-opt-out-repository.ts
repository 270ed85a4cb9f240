import type { SmsOptOutRepository } from '../../../application/ports/repositories/sms-opt-out-repository'
import { MemoryRepository } from './memory-repository'

export class MemorySmsOptOutRepository extends MemoryRepository implements SmsOptOutRepository {
  private key(organizationId: string, phone: string) {
    return `${organizationId}|${phone}`
  }
  async optedOutAt(organizationId: string, phone: string) {
    return this.t.smsOptOuts.get(this.key(organizationId, phone))
  }
  async optOut(organizationId: string, phone: string, at: Date) {
    if (!this.t.smsOptOuts.has(this.key(organizationId, phone))) this.t.smsOptOuts.set(this.key(organizationId, phone), at)
  }
  async optIn(organizationId: string, phone: string) {
    this.t.smsOptOuts.delete(this.key(organizationId, phone))
  }
  async claimHelpAnswer(organizationId: string, phone: string, at: Date, since: Date) {
    const last = this.t.smsHelpAnswers.get(this.key(organizationId, phone))
    if (last && last > since) return false
    this.t.smsHelpAnswers.set(this.key(organizationId, phone), at)
    return true
  }
}
