import { describe, expect, test } from 'bun:test'
import { ROUTES } from './permissions-routes'
import { api, openPermissionsServer } from './permissions-support'

// The matrix of permissions-matrix.test.ts reaches only the routes of permissions-routes.ts: every route of the
// OpenAPI document that takes a member's token must be among them, or a new route would escape the table.
openPermissionsServer()

describe('every route × role × profile against the permission table', () => {
  test('the table covers every authenticated route of the OpenAPI document', async () => {
    const document = await api.call<{ paths: Record<string, Record<string, { security?: unknown[] }>> }>('GET', '/api/openapi.json')
    const documented = Object.entries(document.body.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        // Member routes only: the SMS provider's webhooks carry a signature, not a member's token.
        .filter(([, operation]) => (operation.security ?? []).some((requirement) => 'bearer' in (requirement as object)))
        .map(([method]) => `${method.toUpperCase()} ${path.replace(/:(\w+)/g, '{$1}')}`),
    )
    const tested = new Set(ROUTES.map((r) => r.route.replace(/ \(.*\)$/, '')))
    expect(documented.length).toBeGreaterThanOrEqual(tested.size)
    expect(documented.filter((route) => !tested.has(route)).sort()).toEqual([])
  })
})
