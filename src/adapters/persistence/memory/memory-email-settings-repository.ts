import type { EmailSettingsRepository } from '../../../application/ports/repositories/email-settings-repository'
import type { StoredEmailSettings } from '../../../domain/messaging/email'
import { copy } from './memory-store'
import { MemoryRepository } from './memory-repository'

export class MemoryEmailSettingsRepository extends MemoryRepository implements EmailSettingsRepository {
  async find(organizationId: string) {
    return copy(this.t.emailSettings.get(organizationId))
  }
  async save(settings: StoredEmailSettings) {
    this.t.emailSettings.set(settings.organizationId, copy(settings))
  }
}
