import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { drizzle } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { postgresDialect } from '../../../src/adapters/persistence/postgres/postgres-dialect'
import * as schema from '../../../src/adapters/persistence/postgres/schema'
import { sqlRepositories, type SqlDb } from '../../../src/adapters/persistence/sql/sql-repositories'
import type { Repositories } from '../../../src/application/ports/repositories'
import { EVERY_ORGANIZATION } from '../../../src/application/ports/repositories/interaction-repository'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { matchKeysOf } from '../../../src/domain/constituents/matching'
import { parseConstituentQuery } from '../../../src/domain/constituents/search'
import type { NeedSearch } from '../../../src/domain/needs/search'
import { newestFirst } from '../../../src/domain/shared/page'
import { aConstituent, aHousehold, anOrganization, aNeed, aPartner } from '../../support/builders'
import { postgresAvailable } from '../../support/postgres'
import { minute } from './contract-support'
import { needsToPlan } from './plan-data'
import { db, openTwoInstances, write } from './postgres-support'

// The PostgreSQL query plans of searches, duplicate lookups, need lists and the send limits: which index each statement
// reads, with sequential scans off, among a few hundred people VACUUMed and ANALYZEd.

if (postgresAvailable())
  describe('PostgreSQL database', () => {
    openTwoInstances()

    describe('query plans', () => {
      /** The PostgreSQL repositories over their own client, recording every statement they run with its parameters. */
      let client: postgres.Sql
      let recorded: Array<{ query: string; params: unknown[] }>
      let repositories: Repositories
      const organization = anOrganization()
      const otherOrganization = anOrganization()
      let xiomara: Constituent

      beforeAll(async () => {
        client = postgres(db.url, { max: 1, onnotice: () => {} })
        recorded = []
        const logger = { logQuery: (query: string, params: unknown[]) => void recorded.push({ query, params }) }
        repositories = sqlRepositories(drizzle({ client, schema, logger }) as unknown as SqlDb, postgresDialect)

        // A few hundred people in two organizations, VACUUMed and ANALYZEd: enough for the planner to weigh its indexes.
        await write(async (r) => {
          for (const o of [organization, otherOrganization]) {
            await r.organizations.insert(o)
            for (let h = 0; h < 60; h++) {
              const household = aHousehold({ organizationId: o.id })
              await r.constituents.insertHousehold(household)
              for (let i = 0; i < 5; i++) {
                const n = h * 5 + i
                await r.constituents.insert(
                  aConstituent({
                    organizationId: o.id,
                    householdId: household.id,
                    createdAt: minute(n),
                    updatedAt: minute(n),
                    firstName: ['María', 'José', 'Ana', 'Luis', 'Wei', 'Olga'][n % 6],
                    lastName: `Name${n}`,
                    phone: `+1300${String(1_000_000 + n).padStart(7, '0')}`,
                    email: `person${n}@example.org`,
                    dateOfBirth: `19${50 + (n % 40)}-01-01`,
                    addressStreet: `${n} Main St`,
                  }),
                )
              }
            }
          }
          const household = aHousehold({ organizationId: organization.id })
          await r.constituents.insertHousehold(household)
          xiomara = aConstituent({
            organizationId: organization.id,
            householdId: household.id,
            firstName: 'Xiomara',
            lastName: 'Quispe',
            phone: '+15550001000',
            email: 'xiomara.quispe@example.org',
            dateOfBirth: '1975-05-05',
            addressStreet: '77 Calle Luna',
          })
          await r.constituents.insert(xiomara)
        })
        // VACUUM as autovacuum would: until then a GIN index keeps new entries in its pending list, which the
        // planner costs page by page (ten phone endings a person fill it fast).
        await client`VACUUM ANALYZE constituents`
      })
      afterAll(async () => {
        await client?.end()
      })

      /** The statements `run` makes the repositories issue, each with its plan (sequential scans off). */
      async function plansOf(run: () => Promise<unknown>): Promise<Array<{ query: string; plan: string }>> {
        recorded = []
        await run()
        const statements = recorded
        return client.begin(async (tx) => {
          await tx`SET LOCAL enable_seqscan = off`
          const plans: Array<{ query: string; plan: string }> = []
          for (const { query, params } of statements) {
            const rows = await tx.unsafe(`EXPLAIN ${query}`, params as never[])
            plans.push({ query, plan: rows.map((row) => String(row['QUERY PLAN'])).join('\n') })
          }
          return plans
        })
      }

      test('searching names and phone digits goes through the GIN index constituents_search, for the page and the total', async () => {
        for (const text of ['xio qui', 'Quispe', '555 000', '+1 (555) 000-1000', '0001000', 'xiomara 0001']) {
          const query = parseConstituentQuery(text)
          let page: Awaited<ReturnType<Repositories['constituents']['search']>> | undefined
          const plans = await plansOf(
            async () => (page = await repositories.constituents.search(organization.id, query, { page: 1, limit: 25 })),
          )

          expect(page).toEqual({ items: [xiomara], total: 1 })
          expect(plans).toHaveLength(2)
          for (const { plan } of plans) expect(plan).toContain('constituents_search')
          // The organization is checked on the rows found, not by ANDing its whole index: that grows with its people.
          for (const { plan } of plans) expect(plan).not.toContain('BitmapAnd')
        }
      })

      test('a common name counts up to the bound through the GIN index and walks the organization newest first for its page', async () => {
        // Each first name is one person in six, and every phone here begins +1300; a bound of 10 makes both common
        // among these few hundred. (With a test per word, a query of several words is costed as rarer: among a
        // few hundred rows PostgreSQL then sorts them, which is cheaper there; among thousands it walks.)
        for (const [text, matches] of [
          ['maria', (c: Constituent) => c.firstName === 'María'],
          ['1300', (c: Constituent) => c.phone?.startsWith('+1300') === true],
        ] as const) {
          const query = parseConstituentQuery(text)
          let page: Awaited<ReturnType<Repositories['constituents']['search']>> | undefined
          const plans = await plansOf(
            async () => (page = await repositories.constituents.search(organization.id, query, { page: 1, limit: 25 }, 10)),
          )

          expect(page!.items).toHaveLength(25)
          expect(page!.items.every(matches)).toBe(true)
          expect(page!.items).toEqual([...page!.items].sort(newestFirst))
          expect(page).toMatchObject({ total: 25, totalIsLowerBound: true })
          const [count, walk] = plans
          expect(plans).toHaveLength(2)
          // The count stops one past the cap (the page's end, 25, here), reading the index.
          expect(count!.plan).toContain('constituents_search')
          expect(count!.plan).toMatch(/^Aggregate[\s\S]*Limit/)
          expect(count!.plan).not.toContain('BitmapAnd')
          // The page reads the organization in list order and stops at its 25th match: no sort, no set of matches.
          expect(walk!.plan).toMatch(/^Limit[\s\S]*Index Scan Backward using constituents_newest/)
          expect(walk!.plan).not.toContain('Sort')
          expect(walk!.plan).not.toContain('constituents_search')
        }
      })

      test('finding duplicates uses one constituents_by_* index per key', async () => {
        const keys = matchKeysOf(xiomara)
        const plans = await plansOf(() => repositories.constituents.findByMatchKeys(organization.id, keys, randomUUID(), 10))

        expect(plans).toHaveLength(4)
        const indexes = plans.map(({ plan }) => /constituents_by_\w+/.exec(plan)?.[0])
        expect(indexes).toEqual([
          'constituents_by_phone',
          'constituents_by_email',
          'constituents_by_name_birth',
          'constituents_by_last_street',
        ])
        expect(await repositories.constituents.findByMatchKeys(organization.id, keys, randomUUID(), 10)).toEqual([xiomara])
      })

      test("an overdue list and the report's overdue count read the index of open needs by due date, never the needs' table", async () => {
        await write((r) => needsToPlan(r, organization.id))
        await client`ANALYZE needs`
        const now = minute(1500)
        const listPlans = await plansOf(() => repositories.needs.list(organization.id, { openDueBefore: now }, { page: 1, limit: 25 }))
        const reportPlans = await plansOf(() =>
          repositories.needReports.figures(organization.id, { from: '2026-11-01', to: '2026-11-30' }, now),
        )

        const readingNeeds = [...listPlans, ...reportPlans].filter(({ query }) => /from "needs"/.test(query))
        expect(readingNeeds).toHaveLength(3) // the page, the total's and the report's counts of the bound's own day
        for (const { plan } of readingNeeds) {
          expect(plan).toContain('needs_open_by_due')
          expect(plan).not.toContain('Seq Scan')
        }
      })

      test('a list by assignee or by person, and retention, read the partial indexes of the needs that have one', async () => {
        const { member, person } = await write((r) => needsToPlan(r, otherOrganization.id))
        await client`ANALYZE needs`
        const ofNeeds = async (run: () => Promise<unknown>) => (await plansOf(run)).filter(({ query }) => /from "needs"/.test(query))
        const page = { page: 1, limit: 25 }

        const byAssignee = await ofNeeds(() => repositories.needs.list(otherOrganization.id, { assignedTo: member.id }, page))
        const byPerson = await ofNeeds(() => repositories.needs.list(otherOrganization.id, { constituentId: person.id }, page))
        // Nothing is that old, so nothing is cleared: only the look is planned.
        const retention = await ofNeeds(() => repositories.needs.clearResolvedText(otherOrganization.id, minute(-1), minute(400), 100))

        for (const [plans, index] of [
          [byAssignee, 'needs_by_assignee'],
          [byPerson, 'needs_by_constituent'],
          [retention, 'needs_text_retention'],
        ] as const) {
          expect(plans.length).toBeGreaterThan(0)
          expect(plans.map(({ plan }) => plan).join()).toContain(index)
          for (const { plan } of plans) expect(plan).not.toContain('Seq Scan')
        }
      })

      test('a need is found by its person’s name through constituents_search and needs_by_constituent, its words by need_terms’ key', async () => {
        const searched = anOrganization()
        await write(async (r) => {
          await r.organizations.insert(searched)
          await needsToPlan(r, searched.id)
        })
        await client`VACUUM ANALYZE constituents, needs, need_terms`
        for (const q of ['yol', 'mamani yolanda']) {
          const search = { words: q.split(' '), kinds: ['r', 'd', 'n', 'p'] as NeedSearch['kinds'] }
          let total: number | undefined
          const plans = await plansOf(async () => {
            total = (await repositories.needs.list(searched.id, { search }, { page: 1, limit: 25 })).total
          })

          expect({ q, total }).toEqual({ q, total: 30 })
          const searching = plans.filter(({ query }) => /from "need_terms"/.test(query))
          expect(searching).toHaveLength(3) // the longest word's entries, the matches, the page
          for (const { plan } of searching) {
            expect(plan).toContain('need_terms_organization_id_term_kind_need_id_pk')
            expect(plan).toContain('Bitmap Index Scan on constituents_search')
            expect(plan).toContain('needs_by_constituent')
            expect(plan).not.toContain('Seq Scan')
          }
          // The other word's people are hashed once, not looked up again for each need.
          if (q.includes(' ')) for (const { plan } of searching.slice(1)) expect(plan).toContain('hashed SubPlan')
        }
      })

      test('what one person was sent, in one organization or in every one, reads the contact, its needs and their messages by index', async () => {
        // Everyone of both organizations has a need that sent a text and a mail a minute ago.
        // A unit per 100 people: one unit of them all, statement after statement, could pass the unit's
        // deadline on a busy machine.
        for (const o of [organization, otherOrganization]) {
          const partner = aPartner({ organizationId: o.id })
          const people = await write(async (r) => {
            await r.partners.insert(partner)
            return (await r.constituents.search(o.id, { kind: 'all' }, { page: 1, limit: 500 })).items
          })
          for (let from = 0; from < people.length; from += 100) {
            await write(async (r) => {
              for (const person of people.slice(from, from + 100)) {
                const need = aNeed({ organizationId: o.id, partnerId: partner.id, constituentId: person.id })
                await r.needs.insert(need)
                for (const channel of ['sms', 'email'] as const) {
                  const sent = { channel, direction: 'outbound', senderIdentifier: 'system', createdAt: minute(1) } as const
                  await r.interactions.insert({ id: randomUUID(), organizationId: o.id, needId: need.id, ...sent })
                }
              }
            })
          }
        }
        await client`ANALYZE`
        for (const scope of [organization.id, EVERY_ORGANIZATION]) {
          const plans = await plansOf(async () => {
            expect(await repositories.interactions.tallyTextsTo(scope, xiomara.phone!, minute(0))).toEqual({ count: 1, oldest: minute(1) })
            expect(await repositories.interactions.tallyMailsTo(scope, 'Xiomara.Quispe+1@example.org', minute(0))).toMatchObject({
              count: 1,
            })
          })
          expect(plans).toHaveLength(2)
          for (const { plan } of plans) {
            // From the contact, which leads its index, to the person's needs and their messages: nothing walked.
            expect(plan).toMatch(/ constituents_by_(phone|email) .*\n.*Index Cond: \(\(?(phone|email_key) = /)
            expect(plan).toMatch(
              /needs_by_constituent .*\n.*Index Cond: \(\(organization_id = \S+\) AND \(constituent_id = constituents\.id\)\)/,
            )
            expect(plan).toMatch(
              /interactions_by_need .*\n.*Index Cond: \(\(organization_id = \S+\) AND \(need_id = needs\.id\) AND \(created_at >= /,
            )
            expect(plan).not.toContain('Seq Scan')
          }
        }
      })
    })
  })
