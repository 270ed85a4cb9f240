import { useEffect } from 'preact/hooks'
import type { Permission, Profile } from '../shared/api'
import { may, useProfileAnswer } from '../shared/data'
import { t } from '../shared/i18n'
import { href } from '../shared/router'
import { AuditTrail } from './audit-trail'
import { DevelopmentOutbox } from './development-outbox'
import { Members } from './members'
import { OrganizationScreen } from './organization-settings'
import { PartnersScreen } from './partners-admin'
import { QuickRepliesScreen } from './quick-replies-admin'
import { ServicesScreen } from './services-admin'
import { WebhookDeliveries } from './webhook-deliveries'
import { WebhooksScreen } from './webhooks'

/** The administration's screens (`#/admin/<section>`), each shown to whom its permission allows. */
export const ADMIN_SECTIONS = [
  { key: 'partners', permission: 'partners:update' },
  { key: 'services', permission: 'services:manage' },
  { key: 'organization', permission: 'organization:settings' },
  { key: 'webhooks', permission: 'webhooks:manage' },
  { key: 'members', permission: 'members:list' },
  { key: 'audit', permission: 'audit:read' },
  { key: 'replies', permission: 'organization:settings' },
  { key: 'outbox', permission: 'organization:settings' },
] as const satisfies ReadonlyArray<{ key: string; permission: Permission }>

export function mayAdminister(profile: Profile | undefined): boolean {
  return ADMIN_SECTIONS.some((section) => may(profile, section.permission))
}

/** `#/admin/<section>/<id>`: the sections the member may use as tabs, then the chosen one. */
export function Administration({ path, query }: { path: string[]; query: URLSearchParams }) {
  const { profile, answered } = useProfileAnswer()
  const allowed = ADMIN_SECTIONS.filter((section) => may(profile, section.permission))
  const chosen = path[0] ?? allowed[0]?.key
  useEffect(() => {
    document.title = `${t.administration} · ${t.appName}`
  }, [])

  if (!answered) return <p role="status">{t.loading}</p>
  return (
    <>
      <h1>{t.administration}</h1>
      {allowed.length > 1 && (
        <nav aria-label={t.administration} class="tabs">
          {allowed.map((section) => (
            <a key={section.key} href={href(['admin', section.key])} aria-current={section.key === chosen ? 'page' : undefined}>
              {t.adminSections[section.key]}
            </a>
          ))}
        </nav>
      )}
      {!profile || !allowed.some((section) => section.key === chosen) ? (
        <p role="alert" class="error">
          {t.forbidden}
        </p>
      ) : chosen === 'members' ? (
        <Members query={query} />
      ) : chosen === 'audit' ? (
        <AuditTrail query={query} />
      ) : chosen === 'partners' ? (
        <PartnersScreen profile={profile} />
      ) : chosen === 'services' ? (
        <ServicesScreen profile={profile} />
      ) : chosen === 'organization' ? (
        <OrganizationScreen />
      ) : chosen === 'replies' ? (
        <QuickRepliesScreen />
      ) : chosen === 'outbox' ? (
        <DevelopmentOutbox query={query} />
      ) : path[1] ? (
        <WebhookDeliveries key={path[1]} id={path[1]} query={query} />
      ) : (
        <WebhooksScreen />
      )}
    </>
  )
}
