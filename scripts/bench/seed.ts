// Realistic data for the benchmark, written through the service's own ports (repositories inside units of
// work), so it lands exactly as the service would store it, on SQLite or PostgreSQL alike.
import { CreateOrganization } from '../../src/application/organizations/create-organization'
import type { Constituent, Household } from '../../src/domain/constituents/constituent'
import type { UnnumberedNeed } from '../../src/application/ports/repositories/need-repository'
import type { Interaction } from '../../src/domain/needs/interaction'
import type { Partner } from '../../src/domain/partners/partner'
import { dueDateFor, NEED_STATUSES } from '../../src/domain/needs/need'
import { loadConfig } from '../../src/main/config'
import { createContainer, PORTS } from '../../src/main/container'

export const BENCH_PASSWORD = 'bench-password-1234'

/** Secrets shared by the seeder, the service and the bare route (one token serves both). */
export const BENCH_SECRETS = { JWT_SECRET: 'bench-jwt-secret-'.padEnd(48, 'x'), DATA_ENCRYPTION_KEY: '0'.repeat(64) }

export interface SeedPlan {
  organizations: number
  needs: number
  constituents: number
  seed: number
}

export interface SeededOrganization {
  slug: string
  organizationId: string
  adminEmail: string
  defaultPartnerId: string
}

/** A small, fast, seeded generator (mulberry32): the same plan always gives the same data. */
export function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const FIRST = [
  'Maria',
  'James',
  'Ana',
  'Luis',
  'Fatima',
  'Wei',
  'Olga',
  'Kwame',
  'Sofia',
  'David',
  'Amara',
  'Jose',
  'Linh',
  'Omar',
  'Grace',
  'Ivan',
]
export const LAST = [
  'Garcia',
  'Smith',
  'Nguyen',
  'Johnson',
  'Okafor',
  'Rossi',
  'Kim',
  'Haddad',
  'Brown',
  'Lopez',
  'Cohen',
  'Patel',
  'Silva',
  'Ivanova',
]
const NEEDS = [
  'Needs groceries for a family of four',
  'Help with the electricity bill',
  'Rent is overdue this month',
  'Baby formula and diapers',
  'Heating oil before winter',
  'Ride to a medical appointment',
]
const STATES = ['NY', 'NJ', 'PA', 'CA', 'TX', 'IL']
/** Partners beside each organization's default one, with their SLA hours: needs are spread over all four. */
const PARTNERS = [
  ['Food pantry', 48],
  ['Housing help', 72],
  ['Utility assistance', 120],
] as const
const NOTES = ['Called back, left a message', 'Visited the pantry on Tuesday', 'Waiting for the landlord to answer']

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)]!

/**
 * Creates `plan.organizations` organizations, each with its admin (password BENCH_PASSWORD) and an even share of
 * the needs and the constituents (in households of one to four), written in batches; `progress` hears each batch.
 */
export async function seed(
  databaseUrl: string,
  plan: SeedPlan,
  progress: (done: number, total: number) => void,
): Promise<SeededOrganization[]> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...BENCH_SECRETS })
  const container = createContainer(config)
  const persistence = container.get(PORTS.persistence)
  await persistence.migrate()
  const next = random(plan.seed)
  const ids = container.get(PORTS.ids)
  const organizations: SeededOrganization[] = []
  const epoch = Date.UTC(2024, 0, 1)
  const span = Date.UTC(2026, 10, 1) - epoch
  const total = plan.needs + plan.constituents
  let done = 0
  try {
    for (let o = 0; o < plan.organizations; o++) {
      const slug = `bench-${o + 1}`
      const adminEmail = `admin@${slug}.example.org`
      const created = await container
        .get(CreateOrganization)
        .execute({ name: `Bench ${o + 1}`, slug, adminEmail, adminPassword: BENCH_PASSWORD })
      organizations.push({ slug, organizationId: created.organizationId, adminEmail, defaultPartnerId: created.defaultPartnerId })
    }
    const partnersOf = new Map<string, Array<{ id: string; slaHours: number }>>()
    for (const organization of organizations) {
      const partners = [{ id: organization.defaultPartnerId, slaHours: 72 }]
      await persistence.unitOfWork.run(async (r) => {
        for (const [name, slaHours] of PARTNERS) {
          const partner: Partner = {
            id: ids.next(),
            organizationId: organization.organizationId,
            name,
            slaHours,
            isArchived: false,
            isDefault: false,
            createdAt: new Date(epoch),
          }
          await r.partners.insert(partner)
          partners.push({ id: partner.id, slaHours })
        }
      })
      partnersOf.set(organization.organizationId, partners)
    }
    const BATCH = 2_000
    for (const organization of organizations) {
      const constituents: Constituent[] = []
      const households: string[] = []
      const share = (count: number) => Math.floor(count / plan.organizations)
      for (let written = 0; written < share(plan.constituents); written += BATCH) {
        const size = Math.min(BATCH, share(plan.constituents) - written)
        await persistence.unitOfWork.run(async (r) => {
          for (let i = 0; i < size; ) {
            const createdAt = new Date(epoch + Math.floor(next() * span))
            const household: Household = { id: ids.next(), organizationId: organization.organizationId, createdAt }
            await r.constituents.insertHousehold(household)
            households.push(household.id)
            const lastName = pick(next, LAST)
            for (let member = 1 + Math.floor(next() * 4); member > 0 && i < size; member--, i++) {
              const person: Constituent = {
                id: ids.next(),
                organizationId: organization.organizationId,
                householdId: household.id,
                firstName: pick(next, FIRST),
                lastName,
                phone: `+1555${String(Math.floor(next() * 10_000_000)).padStart(7, '0')}`,
                addressStreet: `${1 + Math.floor(next() * 9999)} Main St`,
                addressState: pick(next, STATES),
                createdAt,
                updatedAt: createdAt,
              }
              await r.constituents.insert(person)
              constituents.push(person)
            }
          }
        })
        done += size
        progress(done, total)
      }
      for (let written = 0; written < share(plan.needs); written += BATCH) {
        const size = Math.min(BATCH, share(plan.needs) - written)
        await persistence.unitOfWork.run(async (r) => {
          // Numbered by the store as they go in, in this order (one multi-row insert per 500).
          const needs: UnnumberedNeed[] = []
          const notes: Interaction[] = []
          for (let i = 0; i < size; i++) {
            const createdAt = new Date(epoch + Math.floor(next() * span))
            const person = constituents.length > 0 && next() < 0.7 ? pick(next, constituents) : undefined
            const partner = pick(next, partnersOf.get(organization.organizationId)!)
            // As intake stores them: the description, and the contact fields that registered the person.
            const customFields = {
              description: pick(next, NEEDS),
              householdSize: 1 + Math.floor(next() * 6),
              ...(person ? { firstName: person.firstName, lastName: person.lastName, phone: person.phone } : {}),
            }
            const status = pick(next, NEED_STATUSES)
            const need: UnnumberedNeed = {
              id: ids.next(),
              organizationId: organization.organizationId,
              partnerId: partner.id,
              status,
              customFields,
              isConfidential: next() < 0.05,
              createdAt,
              updatedAt: createdAt,
              dueDate: dueDateFor(createdAt, partner.slaHours),
              dueDateSetByHand: false,
              // Resolved within about a week, so the reports' histograms hold a realistic spread of hours.
              ...(status === 'RESOLVED' ? { resolvedAt: new Date(createdAt.getTime() + Math.floor(next() * 168 * 3_600_000)) } : {}),
              ...(person ? { constituentId: person.id } : {}),
            }
            needs.push(need)
            if (next() < 0.3) {
              notes.push({
                id: ids.next(),
                organizationId: organization.organizationId,
                partnerId: partner.id,
                needId: need.id,
                channel: 'note',
                senderIdentifier: 'Bench Admin',
                content: pick(next, NOTES),
                createdAt,
              })
            }
          }
          await r.needs.insertMany(needs)
          for (const note of notes) await r.interactions.insert(note)
        })
        done += size
        progress(done, total)
      }
    }
  } finally {
    await persistence.close()
  }
  return organizations
}
