import { useEffect, useState } from 'preact/hooks'
import { LIST_LIMIT } from '../../api-constants'
import { client, type Constituent, type Need, type Profile } from '../shared/api'
import { everyPage, may } from '../shared/data'
import { t } from '../shared/i18n'
import { HouseholdList, personName, readHousehold } from '../shared/people'
import { href } from '../shared/router'
import { authorized } from '../shared/session'

interface Person {
  person: Constituent
  otherOpen: Need[]
  household: Constituent[]
}

/**
 * Whom a need is for: the person's name and the contact details the API answered for this member (what it
 * withholds is not mentioned), a link to them, their other open needs and the others of their household.
 * A member who may not read people is told only that the need is for someone on file.
 */
export function NeedPerson({ need, profile }: { need: Need; profile: Profile | undefined }) {
  const id = need.constituentId
  const mayRead = may(profile, 'constituents:read')
  const [read, setRead] = useState<Person | 'missing'>()
  useEffect(() => {
    if (!id || !mayRead) return
    let current = true
    void readPerson(id, need.id).then((answer) => {
      if (current) setRead(answer)
    })
    return () => {
      current = false
    }
  }, [id, mayRead, need.id])

  if (!id) return null
  return (
    <section aria-labelledby="person-title" class="need-person">
      <h2 id="person-title">{t.needPerson.title}</h2>
      {!mayRead || read === 'missing' ? (
        <p>{t.needPerson.onFile}</p>
      ) : !read ? (
        <p role="status">{t.loading}</p>
      ) : (
        <>
          <dl class="fields">
            <dt>{t.name}</dt>
            <dd>
              <a href={href(['constituents', read.person.id])}>{personName(read.person)}</a>
            </dd>
            {read.person.phone && (
              <>
                <dt>{t.phone}</dt>
                <dd>{read.person.phone}</dd>
              </>
            )}
            {read.person.email && (
              <>
                <dt>{t.email}</dt>
                <dd>{read.person.email}</dd>
              </>
            )}
          </dl>
          <h3>{t.needPerson.otherOpen}</h3>
          {read.otherOpen.length === 0 ? (
            <p>{t.needPerson.noOtherOpen}</p>
          ) : (
            <ul>
              {read.otherOpen.map((other) => (
                <li key={other.id}>
                  <a href={href(['needs', other.referenceNumber])}>{other.referenceNumber}</a> · {t.statuses[other.status]}
                </li>
              ))}
            </ul>
          )}
          <h3>{t.household}</h3>
          <HouseholdList people={read.household} />
        </>
      )}
    </section>
  )
}

async function readPerson(id: string, needId: string): Promise<Person | 'missing'> {
  const path = { id }
  const [person, needs, household] = await Promise.all([
    authorized(() => client.GET('/api/constituents/{id}', { params: { path } })),
    authorized(() =>
      everyPage((page) => client.GET('/api/constituents/{id}/needs', { params: { path, query: { page, limit: LIST_LIMIT } } })),
    ),
    readHousehold(id),
  ])
  if (!person.data) return 'missing'
  const otherOpen = (needs.data ?? []).filter((other) => other.id !== needId && other.status !== 'RESOLVED')
  return { person: person.data, otherOpen, household }
}
