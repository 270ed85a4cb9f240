import type { StoredEmailSettings } from '../../../domain/messaging/email'

export interface EmailSettingsRepository {
  find(organizationId: string): Promise<StoredEmailSettings | undefined>
  /** Creates or replaces the organization's settings. */
  save(settings: StoredEmailSettings): Promise<void>
}
