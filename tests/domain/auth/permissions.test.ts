import { describe, expect, test } from 'bun:test'
import { isAllowed, PERMISSIONS } from '../../../src/domain/auth/permissions'
import { PROFILES, ROLES, type Profile } from '../../../src/domain/auth/roles'
import { CONTRACT_ROWS, cells, PROFILE_COLUMNS, ROLE_LINES } from './permissions-support'

describe('the permission table (docs/api/access.md "Permissions")', () => {
  test('has exactly the permissions of the contract rows, no more, no fewer', () => {
    expect(Object.keys(PERMISSIONS).sort()).toEqual(
      [
        'needs:read',
        'needs:add-note',
        'partners:list',
        'profile:read',
        'profile:update',
        'needs:create',
        'needs:update',
        'needs:send-sms',
        'constituents:read-pii',
        'needs:read-confidential',
        'constituents:read-contact',
        'constituents:read',
        'constituents:update',
        'constituents:merge',
        'constituents:erase',
        'household-matches:list',
        'household-matches:resolve',
        'partners:create',
        'partners:update',
        'members:manage',
        'records:export',
        'records:import',
        'organization:settings',
        'webhooks:manage',
        'members:list',
        'audit:read',
        'reports:read',
      ].sort(),
    )
  })

  test('knows the five roles and six profiles of the interface, in the grid order', () => {
    expect([...ROLES].sort()).toEqual([...ROLE_LINES].sort())
    expect([...PROFILES]).toEqual([...PROFILE_COLUMNS])
  })

  test('each permission appears in exactly one contract row', () => {
    const listed: string[] = CONTRACT_ROWS.flatMap((r) => r.permissions)
    expect(new Set(listed).size).toBe(listed.length)
    expect([...listed].sort()).toEqual(Object.keys(PERMISSIONS).sort())
  })

  for (const { row, permissions, grid } of CONTRACT_ROWS) {
    describe(row, () => {
      for (const permission of permissions) {
        for (const role of ROLE_LINES) {
          const expected = cells(grid[role])
          test(`${permission}: ${role} with no profile, and with each single profile`, () => {
            const actual = [
              isAllowed({ role, profiles: [] }, permission),
              ...PROFILE_COLUMNS.map((profile: Profile) => isAllowed({ role, profiles: [profile] }, permission)),
            ]
            expect(actual).toEqual(expected)
          })
        }
      }
    })
  }

  test('a profile adds to a role and never takes a right away', () => {
    expect(isAllowed({ role: 'volunteer', profiles: ['needs_processor', 'intake_staff'] }, 'needs:create')).toBe(true)
    expect(isAllowed({ role: 'volunteer', profiles: ['needs_processor', 'intake_staff'] }, 'needs:update')).toBe(true)
    expect(isAllowed({ role: 'volunteer', profiles: ['needs_processor', 'intake_staff'] }, 'needs:send-sms')).toBe(false)
  })
})
