import { randomBytes } from 'node:crypto'
import type { Container } from 'inversify'
import { ConflictError } from '../domain/errors'
import { FIRST_START_ADMIN_EMAIL } from '../domain/members/member'
import type { Config } from './config'
import { PORTS, useCasesOf } from './container'

export interface BootstrapResult {
  organizationSlug: string
  adminEmail: string
  /** Present only when the password was generated here, to be shown once. */
  generatedPassword?: string
}

/** The organization's name until INTAKE_ORG_NAME names it; the staff console's first run lasts while it stays (docs/console.md). */
export const FIRST_ORGANIZATION_NAME = 'My Organization'

/**
 * First start (docs/self-hosting.md): on an empty database, one organization and its org_admin, from
 * INTAKE_ADMIN_* / INTAKE_ORG_* or from defaults with a random password.
 */
export async function bootstrapFirstOrganization(c: Container): Promise<BootstrapResult | undefined> {
  const { repositories } = c.get(PORTS.persistence)
  if ((await repositories.organizations.count()) > 0) return undefined
  const settings: Config['bootstrap'] = c.get(PORTS.config).bootstrap
  const generatedPassword = settings.adminPassword ? undefined : randomBytes(12).toString('base64url')
  const result: BootstrapResult = {
    organizationSlug: settings.orgSlug ?? 'my-organization',
    adminEmail: settings.adminEmail ?? FIRST_START_ADMIN_EMAIL,
    ...(generatedPassword ? { generatedPassword } : {}),
  }
  try {
    await useCasesOf(c).operations.createOrganization.execute({
      name: settings.orgName ?? FIRST_ORGANIZATION_NAME,
      slug: result.organizationSlug,
      adminEmail: result.adminEmail,
      adminPassword: settings.adminPassword ?? generatedPassword!,
    })
  } catch (error) {
    // Another instance started on the same empty database at the same time and created it first.
    if (error instanceof ConflictError && (await repositories.organizations.count()) > 0) return undefined
    throw error
  }
  return result
}
