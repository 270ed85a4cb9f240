import { client, type Constituent } from './api'
import { t } from './i18n'
import { href } from './router'
import { authorized } from './session'

// What a person's screen and a need's person section both show of someone on file.

export function personName(person: Pick<Constituent, 'firstName' | 'lastName'>): string {
  return [person.firstName, person.lastName].filter(Boolean).join(' ') || t.unnamed
}

/** The other people of a person's household, as the API redacts them for the member. */
export async function readHousehold(id: string): Promise<Constituent[]> {
  const { data } = await authorized(() => client.GET('/api/constituents/{id}/household', { params: { path: { id } } }))
  return (data ?? []).filter((member) => member.id !== id)
}

/** The others of a household by name, each a link to them. */
export function HouseholdList({ people }: { people: Constituent[] }) {
  if (people.length === 0) return <p>{t.aloneInHousehold}</p>
  return (
    <ul>
      {people.map((member) => (
        <li key={member.id}>
          <a href={href(['constituents', member.id])}>{personName(member)}</a>
        </li>
      ))}
    </ul>
  )
}
