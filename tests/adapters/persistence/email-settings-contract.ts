import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { StoredEmailSettings } from '../../../src/domain/messaging/email'
import type { ContractContext } from './contract-context'
import { minute, presentKeys } from './contract-support'

function someEmailSettings(overrides: Partial<StoredEmailSettings> & Pick<StoredEmailSettings, 'organizationId'>): StoredEmailSettings {
  return {
    provider: 'postmark',
    sealedApiKey: `v1.${randomUUID()}.sealed`,
    apiKeyLast4: 'a1b2',
    fromEmail: 'help@example.org',
    updatedAt: minute(0),
    ...overrides,
  }
}

/** An organization's email settings: saved, replaced by the next save, kept apart per organization. */
export function describeEmailSettingsContract({ read, write, anOrganizationWithPartner }: ContractContext): void {
  describe('email settings', () => {
    test('answers undefined until saved, then the settings, fromName absent when absent', async () => {
      const { organization } = await anOrganizationWithPartner()
      expect(await read().emailSettings.find(organization.id)).toBeUndefined()

      const settings = someEmailSettings({ organizationId: organization.id, updatedAt: minute(3) })
      await write((r) => r.emailSettings.save(settings))

      const found = await read().emailSettings.find(organization.id)
      expect(found).toEqual(settings)
      expect(presentKeys(found, ['fromName'])).toEqual([])
    })

    test('a second save replaces the first, clearing a fromName left out', async () => {
      const { organization } = await anOrganizationWithPartner()
      const first = someEmailSettings({ organizationId: organization.id, provider: 'smtp', fromName: 'Food Bank', updatedAt: minute(1) })
      await write((r) => r.emailSettings.save(first))
      expect(await read().emailSettings.find(organization.id)).toEqual(first)

      const second = someEmailSettings({
        organizationId: organization.id,
        provider: 'ses',
        apiKeyLast4: 'z9y8',
        fromEmail: 'noreply@example.org',
        updatedAt: minute(2),
      })
      await write((r) => r.emailSettings.save(second))

      const found = await read().emailSettings.find(organization.id)
      expect(found).toEqual(second)
      expect(presentKeys(found, ['fromName'])).toEqual([])
      const third = { ...second, fromName: 'Back again', updatedAt: minute(3) }
      await write((r) => r.emailSettings.save(third))
      expect(await read().emailSettings.find(organization.id)).toEqual(third)
    })

    test('keeps each organization’s settings apart', async () => {
      const { organization: a } = await anOrganizationWithPartner()
      const { organization: b } = await anOrganizationWithPartner()
      const ofA = someEmailSettings({ organizationId: a.id, fromName: 'A' })
      await write((r) => r.emailSettings.save(ofA))

      expect(await read().emailSettings.find(b.id)).toBeUndefined()
      const ofB = someEmailSettings({ organizationId: b.id, provider: 'sendgrid' })
      await write((r) => r.emailSettings.save(ofB))

      expect(await read().emailSettings.find(a.id)).toEqual(ofA)
      expect(await read().emailSettings.find(b.id)).toEqual(ofB)
    })

    test('a save in a transaction that rolls back keeps the earlier settings', async () => {
      const { organization } = await anOrganizationWithPartner()
      const kept = someEmailSettings({ organizationId: organization.id })
      await write((r) => r.emailSettings.save(kept))
      const failure = new Error('late failure')

      await expect(
        write(async (r) => {
          await r.emailSettings.save(someEmailSettings({ organizationId: organization.id, provider: 'smtp', fromName: 'Never' }))
          throw failure
        }),
      ).rejects.toBe(failure)

      expect(await read().emailSettings.find(organization.id)).toEqual(kept)
    })
  })
}
