import { describe, expect, test } from 'bun:test'
import type { UseCases } from '../../../src/application/use-cases'
import { AUDITED } from './audit-trail-scenarios'
import { openAuditWorld, u, world } from './audit-trail-support'

// docs/audit.md: every write use case records what it did in its own transaction. Each use case of the
// record the edges are handed is listed, as audited (with a scenario that runs it, in
// audit-trail-scenarios.ts) or as not a write (with the reason, in NOT_AUDITED below): a new use case that
// is neither fails the first test.
openAuditWorld()

/** Use cases that change no record of an organization's, or read no personal details, and why. */
const NOT_AUDITED: Record<string, string> = {
  'auth.authenticate': 'reads the caller’s own member on every request',
  'auth.readInvitation': 'tells the holder of an invitation’s link its organization and its own email, nothing of anyone else',
  'constituents.listNeeds': 'answers needs, not the constituent’s details',
  'members.list': 'reads members, not constituents',
  'members.getProfile': 'the caller’s own profile',
  'members.listViews': 'the caller’s own saved filters',
  'members.createView': 'the caller’s own saved filters of the inbox, seen by no one else: no record of the organization’s',
  'members.updateView': 'the caller’s own saved filters of the inbox, seen by no one else: no record of the organization’s',
  'members.deleteView': 'the caller’s own saved filters of the inbox, seen by no one else: no record of the organization’s',
  'needs.list': 'reads needs',
  'needs.get': 'reads a need',
  'needs.getPublicForm': 'reads an organization’s name, for the public intake page',
  'needs.listInteractions': 'reads a need’s interactions',
  'needs.listHistory': 'reads a need’s history',
  'sms.listUnattached': 'reads texts on no need',
  'organizations.getSettings': 'reads settings',
  'organizations.getEmail': 'reads settings, the key masked',
  'organizations.getQuickReplies': 'reads the organization’s saved texts, no record of a person',
  'organizations.listOutbox': 'reads what would have been sent with no provider: messages of the organization, no constituent record',
  'organizations.testEmail': 'stores nothing: sends one message with settings it was given',
  'partners.list': 'reads partners',
  'services.list': 'reads the directory of services',
  'services.get': 'reads a service',
  'services.searchTerms': 'reads taxonomy terms',
  'audit.list': 'reads the trail itself',
  'reports.needs': 'reads counts of needs, no record of a person',
  'reports.served': 'reads counts of people and households, no record of a person',
  'services.publishedDirectory': 'reads what an organization publishes, anonymously: services, partners and terms',
  'federation.list': 'reads the organization’s pairings',
  'referrals.list': 'reads referrals: statuses, ids and the partner organization’s name',
  'referrals.get': 'reads a referral: its statuses and, on the sender’s side, the consent’s terms',
  'referrals.partnerServices': 'asks a partner organization for its services: no record of this one’s',
  'referrals.sendAgain': 'sends again what an audited send or move queued and the retries gave up on (not audited itself: noted)',
  'federation.createInvitation': 'keeps a one-use code’s digest for a day; the pairing it makes is audited on both sides',
  'webhooks.list': 'reads endpoints, no secret',
  'webhooks.get': 'reads an endpoint, no secret',
  'webhooks.listDeliveries': 'reads deliveries: ids and statuses',
  'webhooks.stream': 'sends the ids of what happens as it happens, to a member who may read those records',
  'operations.dispatchOutbox': 'sends what an audited write queued',
  'operations.purgeAuditEvents': 'the retention purge, the trail’s only deletion',
  'operations.indexNeedSearchBacklog': 'writes the search words of needs on file before the search came: no one’s act',
  'operations.purgeLiveEvents': 'deletes the live stream’s events past its five minutes: ids, no one’s details',
  'operations.sendDailyDigests': 'queues mail that names needs, never people; changes only the member’s digest date',
}

function useCaseNames(useCases: UseCases): string[] {
  return Object.entries(useCases).flatMap(([area, cases]) => Object.keys(cases).map((name) => `${area}.${name}`))
}

describe('the audit trail (docs/audit.md)', () => {
  test('every use case the edges are handed is either audited or listed as no write, with the reason', () => {
    const listed = [...Object.keys(AUDITED), ...Object.keys(NOT_AUDITED)]
    expect(new Set(listed).size).toBe(listed.length)
    expect(useCaseNames(u()).sort()).toEqual(listed.sort())
  })

  for (const [name, scenario] of Object.entries(AUDITED)) {
    test(`${name} records what it did, by whom`, async () => {
      const expected = await scenario()
      const { organizationId, ...event } = expected
      const { items } = await world.repositories.auditEvents.list(
        organizationId ?? world.organizationId,
        { action: event.action },
        { page: 1, limit: 100 },
      )
      const found = items.find((e) => e.recordType === event.recordType && e.recordId === event.recordId && e.memberId === event.memberId)
      expect(found).toBeDefined()
      expect(found!.at).toEqual(world.clock.now())
      expect(found).not.toHaveProperty('requestId') // no HTTP request here
    })
  }
})
