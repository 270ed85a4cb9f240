import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { ConflictError } from '../../../src/domain/errors'
import { FIRST_REFERENCE_NUMBER } from '../../../src/domain/needs/need'
import type { Organization } from '../../../src/domain/organizations/organization'
import type { Repositories } from '../../../src/application/ports/repositories'
import { aMember, aNewNeed, anOrganization } from '../../support/builders'
import type { ContractContext } from './contract-context'
import { minute, presentKeys, rejectionOf } from './contract-support'

/** A short code of six capitals, unique enough for one suite run. */
function aShortCode(): string {
  return Array.from({ length: 6 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('')
}

/** Organizations: the record, its slug, short code and phone number, and every setting's update. */
export function describeOrganizationContract({ read, write, anOrganizationWithPartner }: ContractContext): void {
  describe('organizations', () => {
    test('keeps every optional field through insert and find', async () => {
      const organization = anOrganization({
        shortCode: 'FBNK',
        tcrStatus: 'APPROVED',
        description: 'Feeds the county',
        phoneNumber: '+15551230000',
        maxConcurrency: 7,
        appOrigins: ['https://staff.example.org', 'https://app.example.org:8443'],
        formOrigins: ['https://pantry.example.net'],
        quickReplies: [{ label: 'Ready', body: { en: 'Your box {reference} is ready', es: 'Su caja {reference} está lista' } }],
        createdAt: minute(3),
      })
      await write((r) => r.organizations.insert(organization))

      expect(await read().organizations.findById(organization.id)).toEqual(organization)
      expect(await read().organizations.findBySlug(organization.slug)).toEqual(organization)
    })

    test('leaves absent optional fields absent, not null', async () => {
      const organization = anOrganization()
      await write((r) => r.organizations.insert(organization))

      const found = await read().organizations.findById(organization.id)
      expect(found).toEqual(organization)
      expect(presentKeys(found, ['shortCode', 'tcrStatus', 'phoneNumber', 'appOrigins', 'formOrigins'])).toEqual([])
      expect(
        presentKeys(await read().organizations.findBySlug(organization.slug), [
          'shortCode',
          'tcrStatus',
          'phoneNumber',
          'appOrigins',
          'formOrigins',
        ]),
      ).toEqual([])
    })

    test('answers undefined for an unknown id or slug', async () => {
      expect(await read().organizations.findById(randomUUID())).toBeUndefined()
      expect(await read().organizations.findBySlug(`no-such-${randomUUID()}`)).toBeUndefined()
    })

    test('counts the organizations', async () => {
      const before = await read().organizations.count()
      await write(async (r) => {
        await r.organizations.insert(anOrganization())
        await r.organizations.insert(anOrganization())
      })
      expect(await read().organizations.count()).toBe(before + 2)
    })
  })

  describe('organization update', () => {
    test('saves name, slug, short code, concurrency and registration status, keeping createdAt and the need sequence', async () => {
      const { organization, partner } = await anOrganizationWithPartner({ createdAt: minute(1) })
      const numberOne = (r: Repositories) =>
        r.needs
          .insertMany([aNewNeed({ organizationId: organization.id, partnerId: partner.id })])
          .then(({ referenceNumbers }) => referenceNumbers)
      expect(await write(numberOne)).toEqual([`REQ-${FIRST_REFERENCE_NUMBER}`])
      const shortCode = aShortCode()
      const updated: Organization = {
        ...organization,
        name: 'Renamed Food Bank',
        slug: `renamed-${organization.id.slice(0, 8)}`,
        shortCode,
        maxConcurrency: 9,
        tcrStatus: 'APPROVED',
        description: 'Feeds the county',
        publishDirectory: true,
      }

      await write((r) => r.organizations.update({ ...updated, createdAt: minute(99) }))

      expect(await read().organizations.findById(organization.id)).toEqual(updated)
      expect(await read().organizations.findBySlug(updated.slug)).toEqual(updated)
      expect(await read().organizations.findByShortCode(shortCode)).toEqual(updated)
      expect(await read().organizations.findBySlug(organization.slug)).toBeUndefined()
      expect(await write(numberOne)).toEqual([`${shortCode}-${FIRST_REFERENCE_NUMBER + 1}`])
    })

    test('clears the short code and registration status left out or given as undefined', async () => {
      const shortCode = aShortCode()
      const { organization } = await anOrganizationWithPartner({ shortCode, tcrStatus: 'PENDING' })
      const { shortCode: _shortCode, ...withoutShortCode } = organization

      await write((r) => r.organizations.update({ ...withoutShortCode, tcrStatus: undefined }))

      const found = await read().organizations.findById(organization.id)
      const { tcrStatus: _tcrStatus, ...expected } = withoutShortCode
      expect(found).toEqual(expected)
      expect(presentKeys(found, ['shortCode', 'tcrStatus', 'phoneNumber'])).toEqual([])
      expect(await read().organizations.findByShortCode(shortCode)).toBeUndefined()
    })

    test('replaces the quick replies, and clears them left out', async () => {
      const { organization } = await anOrganizationWithPartner({ quickReplies: [{ label: 'Ready', body: { en: 'Ready' } }] })
      const replaced = {
        ...organization,
        quickReplies: [
          { label: 'Closed', body: { es: 'Cerrado' } },
          { label: 'Open', body: { en: 'Open' } },
        ],
      }
      await write((r) => r.organizations.update(replaced))
      expect(await read().organizations.findById(organization.id)).toEqual(replaced)

      const { quickReplies: _replies, ...without } = replaced
      await write((r) => r.organizations.update(without))
      expect(presentKeys(await read().organizations.findById(organization.id), ['quickReplies'])).toEqual([])
    })

    test('replaces the origin lists, and clears those left out or given as undefined', async () => {
      const { organization } = await anOrganizationWithPartner({
        appOrigins: ['https://staff.example.org'],
        formOrigins: ['https://pantry.example.net'],
      })
      const replaced = { ...organization, appOrigins: ['https://a.example.org', 'https://b.example.org'] }
      await write((r) => r.organizations.update(replaced))
      expect(await read().organizations.findById(organization.id)).toEqual(replaced)

      await write((r) => r.organizations.update({ ...replaced, appOrigins: undefined, formOrigins: undefined }))
      const found = await read().organizations.findById(organization.id)
      expect(presentKeys(found, ['appOrigins', 'formOrigins'])).toEqual([])
    })

    test('an organization keeping its own slug and short code is no conflict', async () => {
      const { organization } = await anOrganizationWithPartner({ shortCode: aShortCode() })

      await write((r) => r.organizations.update({ ...organization, name: 'Same slug, same code' }))

      expect(await read().organizations.findById(organization.id)).toEqual({ ...organization, name: 'Same slug, same code' })
    })

    test('several organizations without a short code are no conflict', async () => {
      const { organization: a } = await anOrganizationWithPartner()
      const { organization: b } = await anOrganizationWithPartner()

      await write(async (r) => {
        await r.organizations.update({ ...a, name: 'A' })
        await r.organizations.update({ ...b, name: 'B' })
      })

      expect((await read().organizations.findById(a.id))?.name).toBe('A')
      expect((await read().organizations.findById(b.id))?.name).toBe('B')
    })

    test('a slug taken by another organization is a ConflictError, and the transaction keeps nothing', async () => {
      const { organization: taken } = await anOrganizationWithPartner()
      const { organization } = await anOrganizationWithPartner()
      const bystander = aMember({ organizationId: organization.id })

      const error = await rejectionOf(
        write(async (r) => {
          await r.members.insert(bystander)
          await r.organizations.update({ ...organization, name: 'Never saved', slug: taken.slug })
        }),
      )

      expect(error).toBeInstanceOf(ConflictError)
      expect((error as ConflictError).message).toMatch(/slug/i)
      expect(await read().organizations.findById(organization.id)).toEqual(organization)
      expect(await read().organizations.findBySlug(taken.slug)).toEqual(taken)
      expect(await read().members.findById(organization.id, bystander.id)).toBeUndefined()
    })

    test('a short code taken by another organization is a ConflictError', async () => {
      const { organization: taken } = await anOrganizationWithPartner({ shortCode: aShortCode() })
      const { organization } = await anOrganizationWithPartner()

      const error = await rejectionOf(write((r) => r.organizations.update({ ...organization, shortCode: taken.shortCode })))

      expect(error).toBeInstanceOf(ConflictError)
      expect((error as ConflictError).message).toMatch(/short code/i)
      expect(await read().organizations.findById(organization.id)).toEqual(organization)
      expect(await read().organizations.findByShortCode(taken.shortCode!)).toEqual(taken)
    })

    test('a former slug stays with its organization: found by it, and no other organization may take it', async () => {
      const { organization } = await anOrganizationWithPartner()
      const renamed = { ...organization, slug: `renamed-${organization.id.slice(0, 8)}` }
      await write((r) => r.organizations.update(renamed))

      expect(await read().organizations.findBySlug(organization.slug)).toBeUndefined()
      expect(await read().organizations.findByAnySlug(organization.slug)).toEqual(renamed)
      expect(await read().organizations.findByAnySlug(renamed.slug)).toEqual(renamed)
      expect(await read().organizations.findByAnySlug('never-held')).toBeUndefined()

      const { organization: other } = await anOrganizationWithPartner()
      const taking = await rejectionOf(write((r) => r.organizations.update({ ...other, slug: organization.slug })))
      expect(taking).toBeInstanceOf(ConflictError)
      expect((taking as ConflictError).message).toMatch(/slug/i)
      const creating = await rejectionOf(write((r) => r.organizations.insert(anOrganization({ slug: organization.slug }))))
      expect(creating).toBeInstanceOf(ConflictError)
      expect(await read().organizations.findById(other.id)).toEqual(other)
    })

    test('an organization may take its former slug back, and then holds the one it left', async () => {
      const { organization } = await anOrganizationWithPartner()
      const renamed = { ...organization, slug: `renamed-${organization.id.slice(0, 8)}` }
      await write((r) => r.organizations.update(renamed))

      await write((r) => r.organizations.update(organization))

      expect(await read().organizations.findBySlug(organization.slug)).toEqual(organization)
      expect(await read().organizations.findByAnySlug(renamed.slug)).toEqual(organization)
    })

    test('updating an unknown organization creates none', async () => {
      const ghost = anOrganization()
      await write((r) => r.organizations.update(ghost))

      expect(await read().organizations.findById(ghost.id)).toBeUndefined()
      expect(await read().organizations.findBySlug(ghost.slug)).toBeUndefined()
    })
  })
}
