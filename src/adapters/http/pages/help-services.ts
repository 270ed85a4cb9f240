import type { PublishedDirectory } from '../../../application/directory/get-published-directory'
import type { OpeningHours, Weekday } from '../../../domain/services/schedule'
import { WEEKDAYS } from '../../../domain/services/schedule'
import type { ServiceDetail } from '../../../domain/services/service'
import { escapeHtml } from './layout'
import { STRINGS, type Language } from './strings'

// docs/api/pages.md "Pages": "Where to get help" on the intake form, the organization's active published services.

/** A Monday: each weekday's name is read from a date of that week, in the page's language. */
const A_MONDAY = Date.UTC(2024, 0, 1)

function dayName(lang: Language, day: Weekday): string {
  const date = new Date(A_MONDAY + WEEKDAYS.indexOf(day) * 86_400_000)
  return new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' }).format(date)
}

function hoursText(lang: Language, hours: OpeningHours): string {
  const days = new Intl.ListFormat(lang, { type: 'conjunction' }).format(hours.byDay.map((day) => dayName(lang, day)))
  return `${days} ${hours.opensAt}–${hours.closesAt}${hours.description ? ` (${hours.description})` : ''}`
}

function languageNames(lang: Language, tags: string[]): string {
  const names = new Intl.DisplayNames([lang], { type: 'language' })
  return new Intl.ListFormat(lang, { type: 'conjunction' }).format(tags.map((tag) => names.of(tag) ?? tag))
}

function serviceHtml(lang: Language, service: ServiceDetail, partnerName: string | undefined): string {
  const s = STRINGS[lang]
  const line = (label: string, value: string) => `<p><strong>${escapeHtml(label)}:</strong> ${value}</p>`
  const { address } = service
  return `<li>
<h3>${escapeHtml(service.name)}${partnerName ? ` <span class="hint">${escapeHtml(partnerName)}</span>` : ''}</h3>
${[
  service.description ? `<p>${escapeHtml(service.description)}</p>` : '',
  service.schedule.length > 0
    ? `${line(s.helpHours, '')}\n<ul>${service.schedule.map((h) => `<li>${escapeHtml(hoursText(lang, h))}</li>`).join('')}</ul>`
    : '',
  service.languages.length > 0 ? line(s.helpLanguages, escapeHtml(languageNames(lang, service.languages))) : '',
  service.phone ? line(s.helpPhone, `<a href="tel:${escapeHtml(service.phone)}">${escapeHtml(service.phone)}</a>`) : '',
  address ? line(s.helpAddress, escapeHtml(`${address.address1}, ${address.city}, ${address.stateProvince} ${address.postalCode}`)) : '',
  service.url ? line(s.helpWebsite, `<a href="${escapeHtml(service.url)}">${escapeHtml(service.url)}</a>`) : '',
]
  .filter(Boolean)
  .join('\n')}
</li>`
}

/** The section, or '' when the organization publishes no active service. */
export function whereToGetHelp(lang: Language, directory: PublishedDirectory): string {
  const active = directory.services.filter((service) => service.status === 'active')
  if (active.length === 0) return ''
  const s = STRINGS[lang]
  const partnerNames = new Map(directory.partners.map((p) => [p.id, p.name]))
  return `<section aria-labelledby="help-title">
<h2 id="help-title">${escapeHtml(s.helpTitle)}</h2>
<p>${escapeHtml(s.helpIntro(directory.organization.name))}</p>
<ul>
${active.map((service) => serviceHtml(lang, service, partnerNames.get(service.partnerId))).join('\n')}
</ul>
</section>`
}
