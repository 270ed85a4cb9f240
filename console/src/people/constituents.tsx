import { Fragment } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { client, PERSON_FIELDS, type Constituent, type ConstituentDetail, type Need } from '../shared/api'
import { formatDate, formatDateTime, may, partnerName, usePartners, useProfile } from '../shared/data'
import { ErasePerson } from './erase-person'
import { ExportButton } from '../shared/exports'
import { language, t } from '../shared/i18n'
import { PAGE_SIZE, pageOf, Paging } from '../shared/paging'
import { HouseholdList, personName, readHousehold } from '../shared/people'
import { PersonEdit } from './person-edit'
import { FoundStatus, searchPeople, type Found } from './search-found'
import { go, href } from '../shared/router'
import { authorized } from '../shared/session'

/** Searching constituents by name, phone or email (`#/constituents?q=…&page=2`); the possible duplicates for those who resolve them. */
export function ConstituentSearch({ query }: { query: URLSearchParams }) {
  const profile = useProfile()
  const q = query.get('q') ?? ''
  const page = pageOf(query)
  const asked = `${page} ${q}`
  const [answer, setAnswer] = useState<{ asked: string; found: Found | string }>()
  useEffect(() => {
    document.title = `${t.constituents} · ${t.appName}`
  }, [])
  useEffect(() => {
    if (!q) return
    let current = true
    void searchPeople(q, PAGE_SIZE, page).then((found) => {
      if (current) setAnswer({ asked, found })
    })
    return () => {
      current = false
    }
  }, [asked])
  const found = answer?.asked === asked ? answer.found : undefined

  return (
    <>
      <h1>{t.constituents}</h1>
      {may(profile, 'household-matches:list') && (
        <p>
          <a href={href(['constituents', 'matches'])}>{t.possibleDuplicates}</a>
        </p>
      )}
      <form
        class="inline"
        role="search"
        onSubmit={(event) => {
          event.preventDefault()
          go(['constituents'], { q: String(new FormData(event.currentTarget).get('q')).trim() || undefined })
        }}
      >
        <div>
          <label for="constituent-query">{t.searchLabel}</label>
          <input id="constituent-query" name="q" type="search" defaultValue={q} autocomplete="off" />
        </div>
        <button type="submit">{t.search}</button>
      </form>
      {may(profile, 'records:export') && may(profile, 'constituents:read') && (
        <ExportButton
          label={q ? t.exportMatches(q) : t.exportEveryone}
          call={() =>
            client.GET('/api/constituents/export', { params: { query: { format: 'csv', ...(q ? { query: q } : {}) } }, parseAs: 'blob' })
          }
        />
      )}
      {q && !found && <p role="status">{t.loading}</p>}
      {typeof found === 'string' && (
        <p role="alert" class="error">
          {found}
        </p>
      )}
      {typeof found === 'object' && <FoundStatus found={found} paged />}
      {typeof found === 'object' && found.people.length > 0 && (
        <div class="table">
          <table>
            <caption class="visually-hidden">{t.constituents}</caption>
            <thead>
              <tr>
                <th scope="col">{t.name}</th>
                <th scope="col">{t.phone}</th>
                <th scope="col">{t.email}</th>
              </tr>
            </thead>
            <tbody>
              {found.people.map((person) => (
                <tr key={person.id}>
                  <td>
                    <a href={href(['constituents', person.id])}>{personName(person)}</a>
                  </td>
                  <td>{person.phone ?? '—'}</td>
                  <td>{person.email ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {typeof found === 'object' && found.total > PAGE_SIZE && (
        <Paging
          path={['constituents']}
          filters={{ q }}
          page={page}
          total={found.total}
          // A total counted only so far: more pages may follow the last one named.
          {...(found.moreThan ? { label: t.pageOfMore } : {})}
        />
      )}
    </>
  )
}

/** One person as the API redacts them for this member, their needs and the other people of their household. */
export function ConstituentScreen({ id }: { id: string }) {
  const partners = usePartners()
  const profile = useProfile()
  const [loaded, setLoaded] = useState<{ person: ConstituentDetail; needs: Need[]; total: number; household: Constituent[] } | 'missing'>()
  const read = async () => {
    const { data: person } = await authorized(() => client.GET('/api/constituents/{id}', { params: { path: { id } } }))
    if (!person) return setLoaded('missing')
    const [needs, household] = await Promise.all([
      authorized(() => client.GET('/api/constituents/{id}/needs', { params: { path: { id }, query: { limit: PAGE_SIZE } } })),
      readHousehold(id),
    ])
    setLoaded({ person, needs: needs.data ?? [], total: Number(needs.response.headers.get('x-total-count') ?? 0), household })
  }
  useEffect(() => void read(), [id])
  useEffect(() => {
    document.title = `${loaded && loaded !== 'missing' ? personName(loaded.person) : t.constituents} · ${t.appName}`
  }, [loaded])

  if (!loaded) return <p role="status">{t.loading}</p>
  if (loaded === 'missing')
    return (
      <>
        <h1>{t.constituents}</h1>
        <p role="alert" class="error">
          {t.personNotFound}
        </p>
      </>
    )
  const { person, needs, total, household } = loaded
  return (
    <>
      <h1>{personName(person)}</h1>
      <PersonDetails person={person} />
      {person.textsStoppedAt && <p class="notice">{t.texts.stoppedOn(formatDate(person.textsStoppedAt, language))}</p>}
      {may(profile, 'needs:create') && !person.erasedAt && (
        <p>
          <a href={href(['new'], { person: person.id })}>{t.personEdit.newNeed}</a>
        </p>
      )}
      <PersonEdit person={person} profile={profile} onSaved={read} />
      <ErasePerson person={person} name={personName(person)} onErased={read} />
      <h2>{t.pastNeeds(total)}</h2>
      {needs.length === 0 ? (
        <p>{t.noNeeds}</p>
      ) : (
        <ul>
          {needs.map((need) => (
            <li key={need.id}>
              <a href={href(['needs', need.referenceNumber])}>{need.referenceNumber}</a> · {t.statuses[need.status]} ·{' '}
              {partnerName(partners, need.partnerId)} · {formatDateTime(need.createdAt, language)}
            </li>
          ))}
        </ul>
      )}
      <h2>{t.household}</h2>
      <HouseholdList people={household} />
    </>
  )
}

/** The details the API answered; a detail it left out is either not on file or not for this member to read. The household is named apart, by its people. */
export function PersonDetails({ person }: { person: Constituent }) {
  return (
    <dl class="fields">
      {PERSON_FIELDS.filter((key) => key !== 'householdId').map((key) => (
        <Fragment key={key}>
          <dt>{t.personFields[key]}</dt>
          <dd>{person[key] ?? t.notShown}</dd>
        </Fragment>
      ))}
    </dl>
  )
}
