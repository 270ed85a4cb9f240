import { describe, expect, test } from 'bun:test'
import { isAllowed, PERMISSIONS } from '../../../src/domain/auth/permissions'
import { PROFILES, ROLES, type Profile } from '../../../src/domain/auth/roles'
import { CONTRACT_ROWS, cells, PROFILE_COLUMNS, ROLE_LINES } from '../../support/permissions'

describe('the permission table (docs/api/access.md "Permissions")', () => {
  test('has exactly the permissions of the grid, each in one row, no more, no fewer', () => {
    const listed: string[] = CONTRACT_ROWS.flatMap((r) => r.permissions)
    const missing = Object.keys(PERMISSIONS).filter((permission) => !listed.includes(permission))
    const extra = listed.filter((permission) => !(permission in PERMISSIONS))
    expect([
      ...missing.map((p) => `permission ${p} is in PERMISSIONS but not in tests/support/permissions.ts: add it to its row's grid`),
      ...extra.map((p) => `permission ${p} is in tests/support/permissions.ts but not in PERMISSIONS`),
    ]).toEqual([])
    expect(new Set(listed).size).toBe(listed.length)
  })

  test('knows the five roles and six profiles of the interface, in the grid order', () => {
    expect([...ROLES].sort()).toEqual([...ROLE_LINES].sort())
    expect([...PROFILES]).toEqual([...PROFILE_COLUMNS])
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
