import type { PublishedDirectory } from '../../../application/directory/get-published-directory'
import type { Organization } from '../../../domain/organizations/organization'
import type { Partner } from '../../../domain/partners/partner'
import type { ServiceDetail } from '../../../domain/services/service'
import { nestedRecordId, uuidV5 } from '../hsds-record-ids'

// docs/directory.md "Mapping": the organization is the HSDS organization, each partner a location, each service one
// service_at_location, at its partner's. Every nested record has its stable id; absent fields are left out.

type Json = Record<string, unknown>

/** The vocabulary of the service's own extensions, published as HSDS attributes (docs/directory.md "Extensions"). */
export const EXTENSION_TAXONOMY = 'intake-extensions'
const ACCEPTING_REFERRALS = 'accepting-referrals'
const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language' })

/** The organization as a list item, and as each service names it. */
export function organizationBrief(o: Organization): Json {
  // HSDS requires a description: empty while the organization has given none.
  return { id: o.id, name: o.name, description: o.description ?? '' }
}

/** `/organizations/{id}`: with its locations (the partners) and its services. */
export function organizationRecord(d: PublishedDirectory): Json {
  return {
    ...organizationBrief(d.organization),
    locations: d.partners.map((p) => location(p, d.organization)),
    services: d.services.map((s) => serviceRecord(s, d, false)),
  }
}

/** A `/services` item: the service's own fields and its organization. */
export function serviceBrief(s: ServiceDetail, o: Organization): Json {
  return {
    id: s.id,
    organization_id: o.id,
    name: s.name,
    description: s.description,
    url: s.url,
    email: s.email,
    status: s.status,
    application_process: s.applicationProcess,
    fees_description: s.fees,
    eligibility_description: s.eligibility,
    last_modified: s.updatedAt.toISOString(),
    organization: organizationBrief(o),
  }
}

/** `/services/{id}`: every nested record; `withLocations` false inside a service_at_location, which is its place already. */
export function serviceRecord(s: ServiceDetail, d: PublishedDirectory, withLocations = true): Json {
  const partner = d.partners.find((p) => p.id === s.partnerId)
  return {
    ...serviceBrief(s, d.organization),
    phones: s.phone ? [{ id: nestedRecordId(s.id, { kind: 'phone' }), service_id: s.id, number: s.phone }] : [],
    schedules: s.schedule.map((hours, index) => ({
      id: nestedRecordId(s.id, { kind: 'schedule', index }),
      service_id: s.id,
      freq: 'WEEKLY',
      byday: hours.byDay.join(','),
      opens_at: hours.opensAt,
      closes_at: hours.closesAt,
      description: hours.description,
    })),
    languages: s.languages.map((tag) => ({
      id: nestedRecordId(s.id, { kind: 'language', tag }),
      service_id: s.id,
      name: LANGUAGE_NAMES.of(tag),
      code: tag.split('-')[0],
      note: tag,
    })),
    attributes: attributes(s, d.organization),
    ...(withLocations && partner ? { service_at_locations: [serviceAtLocation(s, partner, d.organization)] } : {}),
  }
}

/** A service's terms, and whether it takes referrals now (the extension HSDS has no field for). */
function attributes(s: ServiceDetail, o: Organization): Json[] {
  const terms = s.taxonomyTerms.map((term) => ({
    id: nestedRecordId(s.id, { kind: 'attribute', vocabulary: term.vocabulary, code: term.code }),
    link_id: s.id,
    link_type: 'service',
    link_entity: 'service',
    taxonomy_term_id: term.id,
    taxonomy_term: { id: term.id, code: term.code, name: term.name, description: term.description ?? '', taxonomy: term.vocabulary },
  }))
  const acceptingReferrals = uuidV5(o.id, `${EXTENSION_TAXONOMY}:${ACCEPTING_REFERRALS}`)
  return [
    ...terms,
    {
      id: nestedRecordId(s.id, { kind: 'accepting-referrals' }),
      link_id: s.id,
      link_type: 'service',
      link_entity: 'service',
      taxonomy_term_id: acceptingReferrals,
      value: String(s.acceptingReferrals),
      taxonomy_term: {
        id: acceptingReferrals,
        code: ACCEPTING_REFERRALS,
        name: 'Accepting referrals',
        description: 'Whether the service takes referrals now: the value is true or false',
        taxonomy: EXTENSION_TAXONOMY,
      },
    },
  ]
}

/**
 * The service at its partner's location; `whole`, the location gives the service's address (HSDS's list item has none).
 * `service`: the service as the answer nests it.
 */
export function serviceAtLocation(s: ServiceDetail, partner: Partner, o: Organization, service?: Json, whole = true): Json {
  return {
    id: nestedRecordId(s.id, { kind: 'service-at-location' }),
    service_id: s.id,
    location_id: partner.id,
    location: location(partner, o, whole ? s : undefined),
    ...(service ? { service } : {}),
  }
}

function location(partner: Partner, o: Organization, s?: ServiceDetail): Json {
  const address = s?.address
  return {
    id: partner.id,
    location_type: 'physical',
    organization_id: o.id,
    name: partner.name,
    description: partner.description,
    url: partner.website,
    ...(s
      ? {
          addresses: address
            ? [
                {
                  id: nestedRecordId(s.id, { kind: 'address' }),
                  location_id: partner.id,
                  address_1: address.address1,
                  city: address.city,
                  state_province: address.stateProvince,
                  postal_code: address.postalCode,
                  country: address.country,
                  address_type: 'physical',
                },
              ]
            : [],
        }
      : {}),
  }
}
