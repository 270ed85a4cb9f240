import { beforeEach, describe, expect, test } from 'bun:test'
import type { Constituent } from '../../../src/domain/constituents/constituent'
import { ForbiddenError } from '../../../src/domain/errors'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'

// docs/api/exports-import.md "Exports"
let world: World
beforeEach(async () => {
  world = await createWorld()
})

async function exported(batches: AsyncIterable<Constituent[]>): Promise<Constituent[]> {
  const all: Constituent[] = []
  for await (const batch of batches) all.push(...batch)
  return all
}

async function registered(details: Partial<Constituent>): Promise<Constituent> {
  world.clock.advance(60_000)
  return world.useCases.constituents.create.execute(world.admin, details)
}

describe('ExportConstituents', () => {
  test('answers what the search finds, every field for a pii_reader, newest first', async () => {
    const ana = await registered({
      firstName: 'Ana',
      lastName: 'Silva',
      phone: '+15550100001',
      addressStreet: '1 Main St',
      dateOfBirth: '1980-02-03',
    })
    const bo = await registered({ firstName: 'Bo', lastName: 'Silva' })
    await registered({ firstName: 'Cy', lastName: 'Other' })
    const reader = await world.member('staff', { profiles: ['pii_reader'] })
    expect(await exported(await world.useCases.constituents.export.execute(reader, 'silva'))).toEqual([bo, ana])
    expect((await exported(await world.useCases.constituents.export.execute(world.admin, undefined))).map((c) => c.firstName)).toEqual([
      'Cy',
      'Bo',
      'Ana',
    ])
  })

  test('never answers another organization’s constituents', async () => {
    await registered({ firstName: 'Ana' })
    const other = await world.otherOrganization()
    await other.useCases.constituents.create.execute(other.admin, { firstName: 'Zed' })
    expect((await exported(await world.useCases.constituents.export.execute(world.admin, ''))).map((c) => c.firstName)).toEqual(['Ana'])
  })

  test('needs the permission to read constituents besides the export permission', async () => {
    const volunteer = await world.member('volunteer', { partnerId: world.defaultPartner.id, profiles: ['pii_reader'] })
    await failureOf(world.useCases.constituents.export.execute(volunteer, ''), ForbiddenError)
    await failureOf(
      world.useCases.constituents.export.execute(await world.member('partner_admin', { partnerId: world.defaultPartner.id }), ''),
      ForbiddenError,
    )
  })
})
