import { useRef, useState } from 'preact/hooks'
import type { DuplicateCheck } from '../shared/api'
import { personName } from '../shared/people'
import { t } from '../shared/i18n'
import { FoundStatus, searchPeople, type Found } from './search-found'

/** A person on file the need is for: their id and how to call them. */
export interface ChosenPerson {
  id: string
  name: string
}

/** The search for someone on file (name, phone or email), each found person with "Choose …". */
export function PersonSearch({ onChoose }: { onChoose: (person: ChosenPerson) => void }) {
  const [found, setFound] = useState<Found | string>()
  const box = useRef<HTMLInputElement>(null)

  async function search() {
    const query = box.current?.value.trim()
    if (query) setFound(await searchPeople(query, 10))
  }

  return (
    <div>
      <label for="person-query">{t.searchLabel}</label>
      <input
        id="person-query"
        ref={box}
        type="search"
        autocomplete="off"
        // Enter searches here; it would otherwise submit the need.
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return
          event.preventDefault()
          void search()
        }}
      />
      <button type="button" class="secondary" onClick={() => void search()}>
        {t.search}
      </button>
      {typeof found === 'string' && (
        <p role="alert" class="error">
          {found}
        </p>
      )}
      {typeof found === 'object' && <FoundStatus found={found} />}
      {typeof found === 'object' && (
        <ul class="timeline">
          {found.people.map((person) => (
            <li key={person.id}>
              <p>
                {personName(person)}
                {(person.phone || person.email) && <span class="meta"> · {[person.phone, person.email].filter(Boolean).join(' · ')}</span>}
              </p>
              <button type="button" class="secondary" onClick={() => onChoose({ id: person.id, name: personName(person) })}>
                {t.person.choose(personName(person))}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** Whether a check found anyone, told by name or only as existing. */
export const foundAnyone = (check: DuplicateCheck) => check.possibleDuplicates.length > 0 || check.duplicateWarning !== undefined

/** Who the new person's details may be already (as the member may learn it), each with "Choose …" to take them instead. */
export function CheckedDuplicates({ check, onChoose }: { check: DuplicateCheck; onChoose: (person: ChosenPerson) => void }) {
  if (!foundAnyone(check))
    return (
      <p role="status" class="notice">
        {t.person.noDuplicates}
      </p>
    )
  return (
    <section aria-labelledby="checked-duplicates-title" class="warning">
      <h2 id="checked-duplicates-title">{t.duplicates}</h2>
      <p>{t.person.shownFirst}</p>
      {check.duplicateWarning && <p>{check.duplicateWarning}</p>}
      <ul class="timeline">
        {check.possibleDuplicates.map((duplicate) => {
          const name = personName(duplicate)
          return (
            <li key={duplicate.constituentId}>
              <p>
                {name} <span class="meta">· {duplicate.reasons.map((reason) => t.reasons[reason] ?? reason).join(', ')}</span>
              </p>
              <button type="button" class="secondary" onClick={() => onChoose({ id: duplicate.constituentId, name })}>
                {t.person.choose(name)}
              </button>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
