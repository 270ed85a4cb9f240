import { eq } from 'drizzle-orm'
import type { EmailSettingsRepository } from '../../../application/ports/repositories/email-settings-repository'
import type { EmailProvider, StoredEmailSettings } from '../../../domain/messaging/email'
import { SqlRepository, nullable, present } from './sql-repository'

export class SqlEmailSettingsRepository extends SqlRepository implements EmailSettingsRepository {
  async find(organizationId: string) {
    const [row] = await this.db
      .select()
      .from(this.tables.emailSettings)
      .where(eq(this.tables.emailSettings.organizationId, organizationId))
      .limit(1)
    if (!row) return undefined
    const { provider, ...rest } = present(row)
    return { ...rest, provider: provider as EmailProvider }
  }
  async save(settings: StoredEmailSettings) {
    const row = { ...settings, fromName: nullable(settings.fromName) }
    const { organizationId: _organizationId, ...fields } = row
    await this.db
      .insert(this.tables.emailSettings)
      .values(row)
      .onConflictDoUpdate({ target: this.tables.emailSettings.organizationId, set: fields })
  }
}
