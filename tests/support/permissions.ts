import type { Permission } from '../../src/domain/auth/permissions'
import type { Profile, Role } from '../../src/domain/auth/roles'

// docs/api/access.md "Permissions", rewritten by hand as grids, one per row of the contract, without
// looking at PERMISSIONS: the tests' one list of who holds what. Every test that asks whether a caller may do
// something reads it here (the domain's table, the profile's permissions, the HTTP matrix); a new permission is
// its row here, which tests/domain/auth/permissions.test.ts asks for by name. Each line is a role; its 7 cells are the role with no profile, then the role
// holding exactly one profile, in the column order below. 'x' = allowed, '.' = refused.
export const ROLE_LINES = ['org_admin', 'partner_admin', 'partner_agent', 'staff', 'volunteer'] as const
export const PROFILE_COLUMNS = [
  'needs_processor',
  'intake_staff',
  'sms_communicator',
  'email_phone_communicator',
  'pii_reader',
  'duplicate_resolver',
] as const

type Grid = Record<Role, string>

// prettier-ignore
export const CONTRACT_ROWS: Array<{ row: string; permissions: Permission[]; grid: Grid }> = [
  {
    row: 'read needs, add notes, list partners and services, read/update own profile: every role',
    permissions: ['needs:read', 'needs:add-note', 'partners:list', 'services:list', 'profile:read', 'profile:update', 'referrals:read'],
    grid: {
      //              none np is sc epc pii dr
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: 'x    x  x  x  x   x   x',
      partner_agent: 'x    x  x  x  x   x   x',
      staff: 'x    x  x  x  x   x   x',
      volunteer: 'x    x  x  x  x   x   x',
    },
  },
  {
    row: 'create needs: every role but volunteer; a volunteer with intake_staff',
    permissions: ['needs:create'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: 'x    x  x  x  x   x   x',
      partner_agent: 'x    x  x  x  x   x   x',
      staff: 'x    x  x  x  x   x   x',
      volunteer: '.    .  x  .  .   .   .',
    },
  },
  {
    row: 'update needs: org_admin, staff, partner_admin, partner_agent; a volunteer with needs_processor',
    permissions: ['needs:update', 'referrals:send', 'referrals:respond'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: 'x    x  x  x  x   x   x',
      partner_agent: 'x    x  x  x  x   x   x',
      staff: 'x    x  x  x  x   x   x',
      volunteer: '.    x  .  .  .   .   .',
    },
  },
  {
    row: 'send SMS: org_admin; others with sms_communicator',
    permissions: ['needs:send-sms'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: '.    .  .  x  .   .   .',
      partner_agent: '.    .  .  x  .   .   .',
      staff: '.    .  .  x  .   .   .',
      volunteer: '.    .  .  x  .   .   .',
    },
  },
  {
    row: 'read constituent address and date of birth; read customFields of a confidential need: org_admin, partner_admin; others with pii_reader',
    permissions: ['constituents:read-pii', 'needs:read-confidential'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: 'x    x  x  x  x   x   x',
      partner_agent: '.    .  .  .  .   x   .',
      staff: '.    .  .  .  .   x   .',
      volunteer: '.    .  .  .  .   x   .',
    },
  },
  {
    row: 'read constituent phone and email: org_admin, partner_admin; others with pii_reader or email_phone_communicator',
    permissions: ['constituents:read-contact'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: 'x    x  x  x  x   x   x',
      partner_agent: '.    .  .  .  x   x   .',
      staff: '.    .  .  .  x   x   .',
      volunteer: '.    .  .  .  x   x   .',
    },
  },
  {
    row: 'read, search and update constituents: org_admin, staff, partner_admin, partner_agent; a volunteer with intake_staff',
    permissions: ['constituents:read', 'constituents:update'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: 'x    x  x  x  x   x   x',
      partner_agent: 'x    x  x  x  x   x   x',
      staff: 'x    x  x  x  x   x   x',
      volunteer: '.    .  x  .  .   .   .',
    },
  },
  {
    row: 'merge constituents, list and resolve household matches: org_admin; others with duplicate_resolver',
    permissions: ['constituents:merge', 'household-matches:list', 'household-matches:resolve'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: '.    .  .  .  .   .   x',
      partner_agent: '.    .  .  .  .   .   x',
      staff: '.    .  .  .  .   .   x',
      volunteer: '.    .  .  .  .   .   x',
    },
  },
  {
    row: 'erase constituents: org_admin',
    permissions: ['constituents:erase'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: '.    .  .  .  .   .   .',
      partner_agent: '.    .  .  .  .   .   .',
      staff: '.    .  .  .  .   .   .',
      volunteer: '.    .  .  .  .   .   .',
    },
  },
  {
    row: 'create partners: org_admin',
    permissions: ['partners:create'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: '.    .  .  .  .   .   .',
      partner_agent: '.    .  .  .  .   .   .',
      staff: '.    .  .  .  .   .   .',
      volunteer: '.    .  .  .  .   .   .',
    },
  },
  {
    // The "own partner" half is scope, applied by UpdatePartner (tests/application/partners).
    row: 'update partners: org_admin; a partner_admin its own partner',
    permissions: ['partners:update'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: 'x    x  x  x  x   x   x',
      partner_agent: '.    .  .  .  .   .   .',
      staff: '.    .  .  .  .   .   .',
      volunteer: '.    .  .  .  .   .   .',
    },
  },
  {
    // The "own partner" half is scope, applied by CreateService and UpdateService (tests/application/services).
    row: "create and update services: org_admin; a partner_admin its own partner's",
    permissions: ['services:manage'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: 'x    x  x  x  x   x   x',
      partner_agent: '.    .  .  .  .   .   .',
      staff: '.    .  .  .  .   .   .',
      volunteer: '.    .  .  .  .   .   .',
    },
  },
  {
    row: 'import a vocabulary of taxonomy terms: org_admin',
    permissions: ['taxonomy:import'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: '.    .  .  .  .   .   .',
      partner_agent: '.    .  .  .  .   .   .',
      staff: '.    .  .  .  .   .   .',
      volunteer: '.    .  .  .  .   .   .',
    },
  },
  {
    // The "own partner, partner_agent and volunteer only" half is scope, for the members use cases.
    row: 'add and update members: org_admin; a partner_admin for its own partner',
    permissions: ['members:manage'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: 'x    x  x  x  x   x   x',
      partner_agent: '.    .  .  .  .   .   .',
      staff: '.    .  .  .  .   .   .',
      volunteer: '.    .  .  .  .   .   .',
    },
  },
  {
    row: 'organization and email settings: org_admin',
    permissions: ['organization:settings'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: '.    .  .  .  .   .   .',
      partner_agent: '.    .  .  .  .   .   .',
      staff: '.    .  .  .  .   .   .',
      volunteer: '.    .  .  .  .   .   .',
    },
  },
  {
    row: 'referral partners and their pairing codes: org_admin',
    permissions: ['referral-partners:manage'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: '.    .  .  .  .   .   .',
      partner_agent: '.    .  .  .  .   .   .',
      staff: '.    .  .  .  .   .   .',
      volunteer: '.    .  .  .  .   .   .',
    },
  },
  {
    row: 'webhook endpoints and their deliveries: org_admin',
    permissions: ['webhooks:manage'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: '.    .  .  .  .   .   .',
      partner_agent: '.    .  .  .  .   .   .',
      staff: '.    .  .  .  .   .   .',
      volunteer: '.    .  .  .  .   .   .',
    },
  },
  {
    row: 'read the audit trail (GET /api/audit-events): org_admin',
    permissions: ['audit:read'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: '.    .  .  .  .   .   .',
      partner_agent: '.    .  .  .  .   .   .',
      staff: '.    .  .  .  .   .   .',
      volunteer: '.    .  .  .  .   .   .',
    },
  },
  {
    // Partner roles read their own partner's figures only (docs/api/needs.md "Reports").
    row: 'read the needs report (GET /api/reports/needs): org_admin, staff, partner_admin, partner_agent',
    permissions: ['reports:read'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: 'x    x  x  x  x   x   x',
      partner_agent: 'x    x  x  x  x   x   x',
      staff: 'x    x  x  x  x   x   x',
      volunteer: '.    .  .  .  .   .   .',
    },
  },
  {
    // The lists' read permission and scope come on top (docs/api/exports-import.md "Exports").
    row: 'export needs and constituents as CSV: org_admin; others with pii_reader',
    permissions: ['records:export'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: '.    .  .  .  .   x   .',
      partner_agent: '.    .  .  .  .   x   .',
      staff: '.    .  .  .  .   x   .',
      volunteer: '.    .  .  .  .   x   .',
    },
  },
  {
    row: 'import constituents and needs from CSV: org_admin',
    permissions: ['records:import'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: '.    .  .  .  .   .   .',
      partner_agent: '.    .  .  .  .   .   .',
      staff: '.    .  .  .  .   .   .',
      volunteer: '.    .  .  .  .   .   .',
    },
  },
  {
    // Not a row of docs/api/access.md "Permissions", which is silent on listing members: the project's decision, pinned here
    // so that changing it is deliberate (org_admin and partner_admin manage members; staff assign needs).
    row: '(project decision) list members: org_admin, staff, partner_admin',
    permissions: ['members:list'],
    grid: {
      org_admin: 'x    x  x  x  x   x   x',
      partner_admin: 'x    x  x  x  x   x   x',
      partner_agent: '.    .  .  .  .   .   .',
      staff: 'x    x  x  x  x   x   x',
      volunteer: '.    .  .  .  .   .   .',
    },
  },
]

export function cells(line: string): boolean[] {
  const marks = line.replace(/\s+/g, '')
  if (!/^[x.]{7}$/.test(marks)) throw new Error(`a grid line needs 7 cells of x or .: "${line}"`)
  return [...marks].map((mark) => mark === 'x')
}

const GRID = 'tests/support/permissions.ts CONTRACT_ROWS'

/** Whether the grid lets `role`, holding `profiles` (none, or any number: each adds), do `permission`. */
export function holds(role: Role, profiles: readonly Profile[], permission: Permission): boolean {
  const row = CONTRACT_ROWS.find((r) => r.permissions.includes(permission))
  if (!row) throw new Error(`permission ${permission} is not in ${GRID}: add it to the row of docs/api/access.md that grants it`)
  const line = cells(row.grid[role])
  return line[0]! || profiles.some((profile) => line[PROFILE_COLUMNS.indexOf(profile) + 1]!)
}

/** Every permission the grid gives `role` holding `profiles`, sorted. */
export const grantedTo = (role: Role, profiles: readonly Profile[] = []): Permission[] =>
  CONTRACT_ROWS.flatMap((r) => r.permissions)
    .filter((permission) => holds(role, profiles, permission))
    .sort()
