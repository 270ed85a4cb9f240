import fc from 'fast-check'
import type { ApiResponse } from '../../support/http'

// The machinery of tenant-isolation.test.ts: the operations fast-check draws, the call each makes as a member
// of one organization naming records of either, and what a 2xx answer shows of the caller's own records.
// Every name and phone made here is remembered as a secret of the tenant it is made for before it is sent.

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g
const UUID_ONLY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** A phone both organizations give some of their constituents: matching must not reach across them. */
const SHARED_PHONE = '+15550000077'

export type Kind = 'need' | 'constituent' | 'household' | 'partner' | 'member' | 'match'

/** One organization as the test sees it: its members' tokens, what must stay inside it, and its records. */
export interface Tenant {
  name: string
  /** Starts every name and email it creates; the other tenant's tag differs, so neither can appear by chance. */
  tag: string
  /** Phones it creates: `+1555<digit>` followed by a counter. */
  phoneDigit: number
  actors: Array<{ role: string; token: string }>
  /** Lower-cased ids, names, emails and phones of its records: none may reach the other tenant. */
  secrets: Set<string>
  records: Record<Kind, string[]>
}

let counter = 0

/** A fresh name of `t`; remembered as its secret before it is sent. */
function nameOf(t: Tenant): string {
  const name = `${t.tag}${++counter}`
  t.secrets.add(name.toLowerCase())
  return name
}

function phoneOf(t: Tenant): string {
  const phone = `+1555${t.phoneDigit}${String(++counter).padStart(6, '0')}`
  t.secrets.add(phone)
  t.secrets.add(phone.slice(1))
  return phone
}

interface Operation {
  tenant: number
  actor: number
  kind: (typeof OPERATIONS)[number]
  /** Choose the records an operation names, among both tenants' records. */
  picks: [number, number, number]
  flag: boolean
}

const OPERATIONS = [
  'createConstituent',
  'createNeed',
  'getNeed',
  'listNeeds',
  'updateNeed',
  'addNote',
  'listInteractions',
  'needHistory',
  'searchConstituents',
  'getConstituent',
  'updateConstituent',
  'constituentNeeds',
  'merge',
  'listMatches',
  'resolveMatch',
  'createPartner',
  'listPartners',
  'updatePartner',
  'inviteMember',
  'listMembers',
  'updateMember',
  'settings',
] as const

export const operation: fc.Arbitrary<Operation> = fc.record({
  tenant: fc.integer({ min: 0, max: 1 }),
  actor: fc.integer({ min: 0, max: 3 }),
  kind: fc.constantFrom(...OPERATIONS),
  picks: fc.tuple(fc.nat(), fc.nat(), fc.nat()),
  flag: fc.boolean(),
})

/** The call an operation makes as `self`, naming records of either tenant. */
export function callFor(op: Operation, self: Tenant, other: Tenant): { method: string; path: string; body?: unknown; names: string[] } {
  const names: string[] = []
  /** A record of `kind` from both tenants' records (index `i` of the picks), noting when it is the other's. */
  const pick = (kind: Kind, i: 0 | 1 | 2): string | undefined => {
    const all = [...self.records[kind], ...other.records[kind]]
    if (all.length === 0) return undefined
    const id = all[op.picks[i] % all.length]!
    names.push(id)
    return id
  }
  const any = (kind: Kind, i: 0 | 1 | 2) => pick(kind, i) ?? crypto.randomUUID()
  switch (op.kind) {
    case 'createConstituent': {
      const household = op.flag ? pick('household', 0) : undefined
      const phone = op.picks[1] % 3 === 0 ? SHARED_PHONE : phoneOf(self)
      return {
        method: 'POST',
        path: '/api/constituents',
        body: { firstName: nameOf(self), lastName: nameOf(self), phone, ...(household ? { householdId: household } : {}) },
        names,
      }
    }
    case 'createNeed': {
      const constituent = op.flag ? pick('constituent', 1) : undefined
      const body = {
        partnerId: any('partner', 0),
        ...(constituent ? { constituentId: constituent } : {}),
        customFields: { firstName: nameOf(self), phone: phoneOf(self) },
      }
      return { method: 'POST', path: '/api/needs', body, names }
    }
    case 'getNeed':
      return { method: 'GET', path: `/api/needs/${any('need', 0)}`, names }
    case 'listNeeds': {
      const filter = op.flag ? `&partnerId=${any('partner', 0)}` : `&constituentId=${any('constituent', 0)}`
      return { method: 'GET', path: `/api/needs?limit=100${op.picks[1] % 2 ? filter : ''}`, names }
    }
    case 'updateNeed': {
      const body = op.flag
        ? { partnerId: any('partner', 1), status: 'IN_PROGRESS' }
        : { assignedTo: any('member', 1), customFields: { lastName: nameOf(self) } }
      return { method: 'PUT', path: `/api/needs/${any('need', 0)}`, body, names }
    }
    case 'addNote':
      return { method: 'POST', path: `/api/needs/${any('need', 0)}/notes`, body: { content: `note ${nameOf(self)}` }, names }
    case 'listInteractions':
      return { method: 'GET', path: `/api/needs/${any('need', 0)}/interactions`, names }
    case 'needHistory':
      return { method: 'GET', path: `/api/needs/${any('need', 0)}/history`, names }
    case 'searchConstituents': {
      // Searching by the other's names and phones: the query is the caller's own words, the answer must not be.
      const words = [...(op.flag ? other : self).secrets].filter((s) => !UUID_ONLY.test(s) && !s.includes(' '))
      const query = words.length ? words[op.picks[0] % words.length]! : self.tag
      return { method: 'GET', path: `/api/constituents?limit=100&query=${encodeURIComponent(query)}`, names }
    }
    case 'getConstituent':
      return { method: 'GET', path: `/api/constituents/${any('constituent', 0)}`, names }
    case 'updateConstituent':
      return {
        method: 'PUT',
        path: `/api/constituents/${any('constituent', 0)}`,
        body: { lastName: nameOf(self), ...(op.flag ? { phone: SHARED_PHONE } : {}) },
        names,
      }
    case 'constituentNeeds':
      return { method: 'GET', path: `/api/constituents/${any('constituent', 0)}/needs`, names }
    case 'merge':
      return {
        method: 'POST',
        path: '/api/constituents/merge',
        body: { sourceConstituentId: any('constituent', 0), targetConstituentId: any('constituent', 1), mergeHouseholds: op.flag },
        names,
      }
    case 'listMatches':
      return { method: 'GET', path: `/api/household-matches?limit=100${op.flag ? '&status=OPEN' : ''}`, names }
    case 'resolveMatch': {
      const action = (['MERGE_CONSTITUENT', 'MERGE_HOUSEHOLD', 'DISMISS'] as const)[op.picks[1] % 3]
      return { method: 'POST', path: `/api/household-matches/${any('match', 0)}/resolve`, body: { action }, names }
    }
    case 'createPartner':
      return { method: 'POST', path: '/api/partners', body: { name: nameOf(self), slaHours: 48, keywords: [nameOf(self)] }, names }
    case 'listPartners':
      return { method: 'GET', path: '/api/partners?limit=100', names }
    case 'updatePartner':
      return { method: 'PUT', path: `/api/partners/${any('partner', 0)}`, body: { name: nameOf(self) }, names }
    case 'inviteMember': {
      const body = {
        email: `${nameOf(self).toLowerCase()}@example.org`,
        fullName: nameOf(self),
        role: 'partner_agent',
        partnerId: any('partner', 0),
      }
      return { method: 'POST', path: '/api/members', body, names }
    }
    case 'listMembers':
      return { method: 'GET', path: '/api/members?limit=100', names }
    case 'updateMember':
      return {
        method: 'PUT',
        path: `/api/members/${any('member', 0)}`,
        body: { role: op.flag ? 'volunteer' : 'partner_agent', partnerId: any('partner', 1) },
        names,
      }
    case 'settings': {
      // The audit trail names records of the caller's organization only: every id it answers is checked.
      const paths = ['/api/organizations/settings', '/api/profile', '/api/audit-events?limit=100']
      return { method: 'GET', path: paths[op.picks[2] % paths.length]!, names }
    }
  }
}

/** Everything of an answer the caller could read, except the Link header (it repeats the caller's own query). */
export function readable(response: ApiResponse): string {
  const headers = [...response.headers].filter(([name]) => name !== 'link').map(([name, value]) => `${name}: ${value}`)
  return [...headers, JSON.stringify(response.body ?? '')].join('\n').toLowerCase()
}

/** Fields that name a record of a kind, wherever they appear in an answer. */
const REFERENCES: Record<string, Kind> = {
  partnerId: 'partner',
  householdId: 'household',
  constituentId: 'constituent',
  candidateConstituentId: 'constituent',
  assignedTo: 'member',
}

/** What kind of record `path` answers with (its items' `id`), if any. */
function kindOf(path: string): Kind | undefined {
  if (/\/(interactions|notes|history)$/.test(path)) return undefined
  if (path.endsWith('/needs')) return 'need'
  const kinds: Record<string, Kind> = {
    needs: 'need',
    constituents: 'constituent',
    'household-matches': 'match',
    partners: 'partner',
    members: 'member',
  }
  return kinds[path.split('/')[2] ?? '']
}

/** Files what a 2xx answer to `self` shows: every id in it is a secret of `self`, records by kind for later picks. */
export function remember(self: Tenant, path: string, body: unknown): void {
  const file = (kind: Kind | undefined, id: string) => {
    if (kind && !self.records[kind].includes(id)) self.records[kind].push(id)
  }
  const visit = (value: unknown, kind: Kind | undefined) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, kind)
      return
    }
    if (value === null || typeof value !== 'object') return
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner !== 'string') {
        visit(inner, undefined)
        continue
      }
      for (const id of inner.match(UUID) ?? []) self.secrets.add(id)
      if (UUID_ONLY.test(inner)) file(key === 'id' ? kind : REFERENCES[key], inner)
    }
  }
  visit(body, kindOf(path.split('?')[0]!))
}
