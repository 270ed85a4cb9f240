import type { TestServer } from '../../support/http'
import type { World } from '../../support/world'

// The imports' calls over real HTTP (docs/api/exports-import.md "Import"), shared by their end-to-end files.

export interface Report {
  dryRun: boolean
  rows: number
  created: number
  skipped: number
  errors: Array<{ row: number; field: string; message: string }>
  columns: { matched: Array<{ header: string; column: string }>; unknown: string[] }
}

export const CONTACT_COLUMNS: string[] = [
  'firstName',
  'lastName',
  'phone',
  'email',
  'dateOfBirth',
  'addressStreet',
  'addressCity',
  'addressState',
  'addressZip',
]

export async function problemOf(response: Response) {
  return { status: response.status, headers: response.headers, body: await response.json() }
}

/** The import's calls on the server `server` answers (started in a beforeAll, so read at each call). */
export function importClient(server: () => TestServer) {
  /** An organization of its own for each test, and its admin's token: counts then depend on the test alone. */
  async function freshOrganization(): Promise<{ org: World; token: string }> {
    const org = await server().world.otherOrganization()
    return { org, token: await server().tokenFor(org, 'org_admin') }
  }

  const importing = (what: 'constituents' | 'needs', csv: string | Uint8Array, token: string, dryRun = false) =>
    fetch(`${server().url}/api/${what}/import${dryRun ? '?dryRun=true' : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv; charset=utf-8' },
      body: csv,
    })

  async function report(what: 'constituents' | 'needs', csv: string | Uint8Array, token: string, dryRun = false): Promise<Report> {
    const response = await importing(what, csv, token, dryRun)
    const body = await response.json()
    if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(body)}`)
    return body as Report
  }

  return { freshOrganization, importing, report }
}
