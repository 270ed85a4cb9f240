import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { PostgresDatabase } from '../../../src/adapters/persistence/postgres/postgres-database'
import { ConflictError } from '../../../src/domain/errors'
import { FIRST_REFERENCE_NUMBER } from '../../../src/domain/needs/need'
import { aMember, aNewNeed, anOrganization, aPartner } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { minute } from './contract-support'
import { db, gate, openTwoInstances, other, read, write } from './postgres-support'

// Two instances of the service writing to one PostgreSQL database at once: the same member invited twice,
// and needs created together, each with a reference number of its own.

if (postgresAvailable())
  describe('PostgreSQL database', () => {
    openTwoInstances()

    test('two invites of one email from two instances at once end with one member and one ConflictError, the loser keeping nothing', async () => {
      const organization = anOrganization()
      await write(async (r) => {
        await r.organizations.insert(organization)
        await r.partners.insert(aPartner({ organizationId: organization.id, isDefault: true }))
      })
      const email = `${randomUUID()}@example.org`
      // What InviteMember does in its transaction: the member, its invitation, the email in the outbox.
      const invite = (database: PostgresDatabase, inserted: () => void, release: Promise<void>) => {
        const member = aMember({ organizationId: organization.id, email, isConfirmed: false })
        const messageId = randomUUID()
        const tokenDigest = randomUUID()
        const outcome = database.unitOfWork.run(async (r) => {
          await r.invitations.findByDigest(tokenDigest)
          inserted()
          await release
          await r.members.insert(member)
          await r.invitations.insert({
            id: randomUUID(),
            organizationId: organization.id,
            memberId: member.id,
            tokenDigest,
            createdAt: minute(0),
            expiresAt: minute(60),
          })
          await r.outbox.enqueue({
            id: messageId,
            organizationId: organization.id,
            payload: { channel: 'email', email: { template: 'invitation', to: email, subject: 'Invited', text: 'link' } },
            status: 'pending',
            attempts: 0,
            nextAttemptAt: minute(0),
            createdAt: minute(0),
          })
          return member
        })
        return { member, messageId, tokenDigest, outcome }
      }

      // Both transactions are open before either inserts: the unique index, not the order, decides.
      const [startedA, startedB, go] = [gate(), gate(), gate()]
      const first = invite(db.persistence, startedA.open, go.opened)
      const second = invite(other, startedB.open, go.opened)
      await Promise.all([startedA.opened, startedB.opened])
      go.open()
      const settled = await Promise.allSettled([first.outcome, second.outcome])

      const rejected = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected')
      expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1)
      expect(rejected).toHaveLength(1)
      expect(rejected[0]!.reason).toBeInstanceOf(ConflictError)
      expect((rejected[0]!.reason as ConflictError).message).toBe('A member with this email already exists in the organization')
      const [winner, loser] = settled[0]!.status === 'fulfilled' ? [first, second] : [second, first]
      expect(await read().members.findAllByEmail(email)).toEqual([winner.member])
      expect(await read().outbox.findById(winner.messageId)).toBeDefined()
      expect(await read().outbox.findById(loser.messageId)).toBeUndefined()
      expect((await read().invitations.findByDigest(winner.tokenDigest))?.memberId).toBe(winner.member.id)
      expect(await read().invitations.findByDigest(loser.tokenDigest)).toBeUndefined()
    })

    test('two instances creating needs at once get distinct, consecutive numbers, awaited in the unit or after COMMIT', async () => {
      const organization = anOrganization()
      const partner = aPartner({ organizationId: organization.id })
      await write(async (r) => {
        await r.organizations.insert(organization)
        await r.partners.insert(partner)
      })
      const aNew = () => aNewNeed({ organizationId: organization.id, partnerId: partner.id })
      const createTen = (database: PostgresDatabase) =>
        database.unitOfWork.run(async (r) => {
          const taken: string[] = []
          for (let i = 0; i < 10; i++) {
            taken.push(...(await (await r.needs.insertMany([aNew()])).referenceNumbers))
            await new Promise((resolve) => setImmediate(resolve))
          }
          return taken
        })
      // As a staff create: the insert goes out with COMMIT, its number read once the unit has committed.
      const createOne = async (database: PostgresDatabase) => {
        const { referenceNumbers } = await database.unitOfWork.run((r) => r.needs.insertMany([aNew()]))
        return referenceNumbers
      }
      const each = (database: PostgresDatabase) => [
        ...Array.from({ length: 5 }, () => createTen(database)),
        ...Array.from({ length: 25 }, () => createOne(database)),
      ]

      const all = (await Promise.all([...each(db.persistence), ...each(other)])).flat()

      expect(new Set(all).size).toBe(150)
      const numbers = all.map((reference) => Number(reference.slice('REQ-'.length))).sort((a, b) => a - b)
      expect(numbers).toEqual(Array.from({ length: 150 }, (_, i) => FIRST_REFERENCE_NUMBER + i))
    })
  })
