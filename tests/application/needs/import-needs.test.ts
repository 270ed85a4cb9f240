import { beforeEach, describe, expect, test } from 'bun:test'
import { ForbiddenError } from '../../../src/domain/errors'
import type { Partner } from '../../../src/domain/partners/partner'
import { aFile } from '../../support/builders'
import { createWorld, type World } from '../../support/world'
import { failureOf } from '../failure-of'

// docs/api/exports-import.md "Import", on the in-memory adapters.
let world: World
let pantry: Partner
beforeEach(async () => {
  world = await createWorld()
  pantry = await world.partner({ name: 'Food Pantry', slaHours: 24 })
})

const importing = (text: string, dryRun = false) => world.useCases.needs.import.execute(world.admin, aFile(text), { dryRun })
const allNeeds = async () => (await world.repositories.needs.list(world.organizationId, {}, { page: 1, limit: 100 })).items

const file = () =>
  [
    'partnerId,status,description,customFields,createdAt',
    `food pantry,PENDING_CLIENT,Groceries for four,"{""firstName"":""Ana"",""phone"":""+15035550101"",""size"":4}",2025-06-01T10:00:00Z`,
    `${pantry.id},NEW,Rent,,2025-06-02`,
    `,NEW,"Groceries for four",,2025-06-01T10:00:00Z`,
    `Food Pantry,NEW,Groceries for four,"{""size"":4,""phone"":""+15035550101"",""firstName"":""Ana""}",2025-06-01T10:00:00.000Z`,
    `Archived,NEW,x,,2025-06-03`,
    `,NEW,x,,2999-01-01`,
  ].join('\n')

describe('ImportNeeds', () => {
  test('records each row as an intake on its original date; the same row again, in the file or on a second run, is skipped', async () => {
    await world.partner({ name: 'Archived', isArchived: true })
    const report = await importing(file())
    expect(report).toEqual({
      dryRun: false,
      rows: 6,
      created: 3,
      skipped: 1,
      errors: [
        { row: 5, field: 'partnerId', message: 'must name a partner of this organization, by its id or its name' },
        { row: 6, field: 'createdAt', message: 'must not be in the future' },
      ],
      columns: {
        matched: ['partnerId', 'status', 'description', 'customFields', 'createdAt'].map((c) => ({ header: c, column: c })),
        unknown: [],
      },
    })
    const needs = await allNeeds()
    const groceries = needs.find((n) => n.customFields.size === 4)!
    expect(groceries).toMatchObject({
      partnerId: pantry.id,
      status: 'PENDING_CLIENT',
      createdAt: new Date('2025-06-01T10:00:00Z'),
      dueDate: new Date('2025-06-02T10:00:00Z'),
      createdBy: world.admin.memberId,
      customFields: { firstName: 'Ana', phone: '+15035550101', size: 4, description: 'Groceries for four' },
    })
    // Its contact keys became a constituent, as on intake.
    expect(await world.repositories.constituents.findById(world.organizationId, groceries.constituentId!)).toMatchObject({
      phone: '+15035550101',
    })
    const history = await world.useCases.needs.listHistory.execute(world.admin, groceries.id, { page: 1, limit: 10 })
    expect(history.items).toEqual([
      expect.objectContaining({ field: 'status', to: 'PENDING_CLIENT', changedAt: new Date('2025-06-01T10:00:00Z') }),
    ])
    expect(needs.find((n) => n.customFields.description === 'Groceries for four' && n.partnerId === world.defaultPartner.id)).toBeDefined()

    expect(await importing(file())).toMatchObject({ created: 0, skipped: 4 })
    expect(await allNeeds()).toHaveLength(3)
  })

  test('refuses customFields that are not a JSON object, or that hold a NUL character', async () => {
    const report = await importing(
      ['customFields,createdAt', '[1],2025-01-02', '"{""a"":""x\\u0000""}",2025-01-02', '{oops,2025-01-02'].join('\n'),
    )
    expect(report.errors).toEqual([
      { row: 1, field: 'customFields', message: 'must be a JSON object' },
      { row: 2, field: 'customFields', message: 'may not contain NUL characters (\\u0000)' },
      { row: 3, field: 'customFields', message: 'must be a JSON object' },
    ])
  })

  test('names a text that is not valid Unicode deep in customFields by its path, cut to the report’s bound', async () => {
    const deep = `{${'"a-rather-long-key-of-forty-characters-x":{'.repeat(30)}"bad":"\\ud800"${'}'.repeat(31)}`
    const report = await importing(`customFields,createdAt\n"${deep.replaceAll('"', '""')}",2025-01-02\n`)
    expect(report.errors).toHaveLength(1)
    expect(report.errors[0]!.field).toStartWith('customFields/a-rather-long-key')
    expect(report.errors[0]!.field).toHaveLength(1000)
    expect(report.errors[0]!.message).toBe('must be valid Unicode text')
  })

  test('a dry run stores nothing and answers what the run does', async () => {
    const dry = await importing(file(), true)
    expect(await allNeeds()).toEqual([])
    expect(await importing(file())).toEqual({ ...dry, dryRun: false })
  })

  test('an operator’s import (no member) tells nobody the needs arrived: they are old requests', async () => {
    const slug = (await world.repositories.organizations.findById(world.organizationId))!.slug
    const report = await world.useCases.operations.importFile.execute(slug, 'needs', aFile(file()), { dryRun: false })
    expect(report.created).toBe(3)
    const due = await world.repositories.outbox.organizationsWithDue(new Date('2100-01-01T00:00:00Z'), 1000)
    expect(due).not.toContain(world.organizationId)
    expect((await allNeeds()).map((n) => n.createdBy)).toEqual([undefined, undefined, undefined])
  })

  test('org_admin only', async () => {
    const staff = await world.member('staff', { profiles: ['intake_staff', 'needs_processor'] })
    await failureOf(world.useCases.needs.import.execute(staff, aFile(file()), { dryRun: true }), ForbiddenError)
  })
})

describe('ImportNeeds and the reports', () => {
  test('a need imported as RESOLVED counts as resolved on its original day, under its partner', async () => {
    expect(
      (await importing(`partnerId,status,description,createdAt\n${pantry.id},RESOLVED,Done long ago,2025-06-02T08:00:00Z\n`)).created,
    ).toBe(1)
    const [need] = await allNeeds()
    expect(need).toMatchObject({ status: 'RESOLVED', resolvedAt: new Date('2025-06-02T08:00:00Z'), dueDateSetByHand: false })
    const report = await world.useCases.reports.needs.execute(world.admin, { from: '2025-06-02', to: '2025-06-02' })
    expect(report.byPartner.find((p) => p.partnerId === pantry.id)).toMatchObject({ opened: 1, resolved: 1, medianHoursToResolve: 0 })
  })

  test('a resolvedAt column keeps when a RESOLVED need was resolved: the report counts it on that day, with its hours', async () => {
    const csv = [
      'partnerId,status,description,createdAt,resolvedAt',
      `${pantry.id},RESOLVED,Done later,2025-06-02T08:00:00Z,2025-06-03T20:30:00Z`,
      `${pantry.id},NEW,Open,2025-06-02T08:00:00Z,2025-06-03T20:30:00Z`,
      `${pantry.id},RESOLVED,Backwards,2025-06-02T09:00:00Z,2025-06-01`,
      `${pantry.id},RESOLVED,Not a time,2025-06-02T10:00:00Z,soon`,
    ].join('\n')
    const report = await importing(csv)
    expect({ created: report.created, errors: report.errors.map((e) => `${e.row} ${e.field} ${e.message}`) }).toEqual({
      created: 1,
      errors: [
        '2 resolvedAt is only for a RESOLVED need: leave it empty',
        '3 resolvedAt must not be before createdAt',
        '4 resolvedAt must be a date or a time in ISO 8601, like 2025-03-01 or 2025-03-01T09:30:00Z',
      ],
    })
    const [need] = await allNeeds()
    expect(need).toMatchObject({
      status: 'RESOLVED',
      createdAt: new Date('2025-06-02T08:00:00Z'),
      resolvedAt: new Date('2025-06-03T20:30:00Z'),
    })
    const opened = await world.useCases.reports.needs.execute(world.admin, { from: '2025-06-02', to: '2025-06-02' })
    expect(opened.byPartner.find((p) => p.partnerId === pantry.id)).toMatchObject({ opened: 1, resolved: 0 })
    const resolved = await world.useCases.reports.needs.execute(world.admin, { from: '2025-06-03', to: '2025-06-03' })
    expect(resolved.byPartner.find((p) => p.partnerId === pantry.id)).toMatchObject({ resolved: 1, medianHoursToResolve: 36 })
  })
})
