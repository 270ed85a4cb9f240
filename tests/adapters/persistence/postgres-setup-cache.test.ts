import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import type { Repositories } from '../../../src/application/ports/repositories'
import type { Organization } from '../../../src/domain/organizations/organization'
import type { Partner } from '../../../src/domain/partners/partner'
import { anAuditEvent, anOrganization, aPartner, aWebhookEndpoint } from '../../support/builders'
import { databaseProxy, type DatabaseProxy } from '../../support/database-proxy'
import { postgresAvailable } from '../../support/postgres'
import { makePostgres, type PostgresFixture } from './postgres-fixture'

// An instance keeps what it read of an organization's partners and webhook subscriptions, and each
// transaction that uses what it kept checks, with its own statements, that neither changed since
// (src/adapters/persistence/postgres/setup-cache.ts): a create of a need is one round trip, and no instance
// ever uses a partner or a subscription another has changed.

if (postgresAvailable())
  describe('PostgreSQL: partners and webhook subscriptions kept between transactions', () => {
    let db: PostgresFixture
    let proxy: DatabaseProxy
    /** The instance under test, through a proxy that counts its round trips. */
    let kept: PostgresDatabase
    /** Another instance, changing what the first has kept. */
    let other: PostgresDatabase
    /** What the instance under test logged, at debug and above. */
    const logged: string[] = []
    const note = (message: string) => void logged.push(message)
    beforeAll(async () => {
      db = await makePostgres()
      proxy = await databaseProxy(db.url)
      const logger = { debug: note, info: note, warn: note, error: note }
      kept = new PostgresDatabase(proxy.url, { maxConnections: 2, logger })
      other = db.persistence
    })
    afterAll(async () => {
      await kept?.close()
      await proxy?.close()
      await db?.cleanup()
    })

    async function anOrganizationWithPartner(): Promise<{ organization: Organization; partner: Partner }> {
      const organization = anOrganization()
      const partner = aPartner({ organizationId: organization.id })
      await other.unitOfWork.run(async (r) => {
        await r.organizations.insert(organization)
        await r.partners.insert(partner)
      })
      return { organization, partner }
    }

    /** Runs `work` on the instance under test, counting how many times it ran. */
    async function counted<T>(work: (r: Repositories) => Promise<T>): Promise<{ result: T; runs: number }> {
      let runs = 0
      const result = await kept.unitOfWork.run((r) => {
        runs++
        return work(r)
      })
      return { result, runs }
    }

    test('a transaction that reads a partner and the subscribers it read before, then writes, is one round trip', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const create = () =>
        kept.unitOfWork.run(async (r) => {
          const [found, subscribers] = await Promise.all([
            r.partners.findById(organization.id, partner.id),
            r.webhookEndpoints.subscribedTo(organization.id, 'need.created'),
          ])
          await r.auditEvents.append([anAuditEvent({ organizationId: organization.id, recordId: found!.id })])
          return subscribers
        })
      // Read and kept; then each connection prepares the check once.
      for (let i = 0; i < 4; i++) await create()
      const before = proxy.counter.roundTrips
      expect(await create()).toEqual([])
      expect(proxy.counter.roundTrips - before).toBe(1)
      const trail = await other.repositories.auditEvents.list(organization.id, {}, { page: 1, limit: 10 })
      expect(trail.total).toBe(5)
    })

    test('a partner another instance changed is read afresh: the kept one fails its check and the work runs again', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const find = () => counted((r) => r.partners.findById(organization.id, partner.id))
      expect(await find()).toEqual({ result: partner, runs: 1 })
      expect(await find()).toEqual({ result: partner, runs: 1 })

      const archived = { ...partner, isArchived: true, slaHours: 12 }
      await other.unitOfWork.run((r) => r.partners.update(archived))
      logged.length = 0
      expect(await find()).toEqual({ result: archived, runs: 2 })
      expect(logged).toEqual(['a unit of work runs again: partners or webhook subscriptions it had kept changed'])
      // Kept anew from the next read on.
      expect(await find()).toEqual({ result: archived, runs: 1 })
      expect(await find()).toEqual({ result: archived, runs: 1 })

      // A partner added, or one removed, changes what was kept too.
      const added = aPartner({ organizationId: organization.id })
      await other.unitOfWork.run((r) => r.partners.insert(added))
      expect(await find()).toEqual({ result: archived, runs: 2 })
    })

    test('the partners listed to route a public request are kept too, and follow a partner added elsewhere', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const listed = () => counted(async (r) => (await r.partners.listAll(organization.id)).map((p) => p.id).sort())
      expect(await listed()).toEqual({ result: [partner.id], runs: 1 })
      expect(await listed()).toEqual({ result: [partner.id], runs: 1 })
      const added = aPartner({ organizationId: organization.id })
      await other.unitOfWork.run((r) => r.partners.insert(added))
      expect(await listed()).toEqual({ result: [partner.id, added.id].sort(), runs: 2 })
    })

    test('subscribers follow endpoints added, disabled or resubscribed elsewhere; a delivery failure counted changes nothing kept', async () => {
      const { organization } = await anOrganizationWithPartner()
      const subscribers = () =>
        counted(async (r) => (await r.webhookEndpoints.subscribedTo(organization.id, 'need.created')).map((e) => e.id))
      expect(await subscribers()).toEqual({ result: [], runs: 1 })

      const endpoint = aWebhookEndpoint({ organizationId: organization.id, events: ['need.created'] })
      await other.unitOfWork.run((r) => r.webhookEndpoints.insert(endpoint))
      expect(await subscribers()).toEqual({ result: [endpoint.id], runs: 2 })
      expect(await subscribers()).toEqual({ result: [endpoint.id], runs: 1 })

      await other.unitOfWork.run((r) => r.webhookEndpoints.update({ ...endpoint, consecutiveFailures: 3 }))
      expect(await subscribers()).toEqual({ result: [endpoint.id], runs: 1 })

      await other.unitOfWork.run((r) => r.webhookEndpoints.update({ ...endpoint, consecutiveFailures: 3, enabled: false }))
      expect(await subscribers()).toEqual({ result: [], runs: 2 })

      expect(await subscribers()).toEqual({ result: [], runs: 1 })

      await other.unitOfWork.run((r) => r.webhookEndpoints.update({ ...endpoint, events: ['need.created', 'note.added'] }))
      expect(await subscribers()).toEqual({ result: [endpoint.id], runs: 2 })
      expect(await subscribers()).toEqual({ result: [endpoint.id], runs: 1 })
      await other.unitOfWork.run((r) => r.webhookEndpoints.update({ ...endpoint, events: ['note.added'] }))
      expect(await subscribers()).toEqual({ result: [], runs: 2 })
    })

    test('a transaction sees its own change of a partner, and what a rolled-back one read is never kept', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const find = () => counted((r) => r.partners.findById(organization.id, partner.id))
      await find()

      const renamed = { ...partner, name: 'Renamed pantry' }
      const seen = await kept.unitOfWork.run(async (r) => {
        await r.partners.findById(organization.id, partner.id)
        await r.partners.update(renamed)
        return r.partners.findById(organization.id, partner.id)
      })
      expect(seen).toEqual(renamed)
      expect(await find()).toMatchObject({ result: renamed })

      const failure = new Error('rolled back')
      const rolledBack = kept.unitOfWork.run(async (r) => {
        await r.partners.update({ ...renamed, name: 'Never committed' })
        await r.partners.findById(organization.id, partner.id)
        throw failure
      })
      expect(await rolledBack.catch((error: unknown) => error)).toBe(failure)
      expect(await find()).toMatchObject({ result: renamed })
      expect(await find()).toEqual({ result: renamed, runs: 1 })
    })

    test('what is kept is kept per organization, and each answer is a copy', async () => {
      const { organization, partner } = await anOrganizationWithPartner()
      const { organization: another } = await anOrganizationWithPartner()
      const find = (organizationId: string) => counted((r) => r.partners.findById(organizationId, partner.id))
      await find(organization.id)
      const { result } = await find(organization.id)
      result!.name = 'Changed by its reader'
      result!.keywords?.push('changed')
      expect((await find(organization.id)).result).toEqual(partner)
      // Another organization asking for this partner's id never gets it, kept or not.
      expect(await find(another.id)).toEqual({ result: undefined, runs: 1 })
      expect(await find(another.id)).toEqual({ result: undefined, runs: 1 })
    })
  })
