import type { CreatedNeed } from '../shared/api'
import { t } from '../shared/i18n'
import { href } from '../shared/router'

// A new need's creation answers its possible duplicates once: the console goes to the need itself, which
// shows them with the word that it was created.
let justCreated: CreatedNeed | undefined

export function rememberCreated(created: CreatedNeed) {
  justCreated = created
}

/** The creation answer of the need with this reference, once: a reload of the need no longer says it. */
export function takeCreated(reference: string): CreatedNeed | undefined {
  if (justCreated?.referenceNumber !== reference) return undefined
  const created = justCreated
  justCreated = undefined
  return created
}

/** The possible duplicates the creation named, each a link to them. */
export function CreatedDuplicates({ created }: { created: CreatedNeed }) {
  if (!created.duplicateWarning && !created.possibleDuplicates?.length) return null
  return (
    <section aria-labelledby="duplicates-title" class="warning">
      <h2 id="duplicates-title">{t.duplicates}</h2>
      {created.duplicateWarning && <p>{created.duplicateWarning}</p>}
      {created.possibleDuplicates && (
        <ul>
          {created.possibleDuplicates.map((duplicate, index) => (
            <li key={duplicate.constituentId}>
              <a href={href(['constituents', duplicate.constituentId])}>
                {t.possibleDuplicate(index + 1, duplicate.reasons.map((reason) => t.reasons[reason] ?? reason).join(', '))}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
