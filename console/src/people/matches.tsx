import { useEffect, useState } from 'preact/hooks'
import { client, type HouseholdMatch } from '../shared/api'
import { PersonDetails } from './constituents'
import { personName } from '../shared/people'
import { failure } from '../shared/outcome'
import { t } from '../shared/i18n'
import { href } from '../shared/router'
import { authorized } from '../shared/session'

type Action = 'MERGE_CONSTITUENT' | 'MERGE_HOUSEHOLD' | 'DISMISS'

/**
 * The open household matches, for those who resolve them: both people and why they may be one. Merging asks
 * first, showing both records and which one stays.
 */
export function Matches() {
  const [matches, setMatches] = useState<HouseholdMatch[] | string>()
  const [message, setMessage] = useState<{ text: string; error?: boolean }>()
  const [confirming, setConfirming] = useState<HouseholdMatch>()
  useEffect(() => {
    document.title = `${t.possibleDuplicates} · ${t.appName}`
  }, [])

  async function load() {
    const { data, error, response } = await authorized(() =>
      client.GET('/api/household-matches', { params: { query: { status: 'OPEN', limit: 25 } } }),
    )
    setMatches(data ?? failure(response.status, error).text)
  }
  useEffect(() => void load(), [])

  async function resolve(match: HouseholdMatch, action: Action, done: string, targetConstituentId?: string) {
    const body = { action, ...(targetConstituentId ? { targetConstituentId } : {}) }
    const { error, response } = await authorized(() =>
      client.POST('/api/household-matches/{id}/resolve', { params: { path: { id: match.id } }, body }),
    )
    await load()
    setConfirming(undefined)
    setMessage(error ? failure(response.status, error) : { text: done })
  }

  return (
    <>
      <h1>{t.possibleDuplicates}</h1>
      <div role="status" class={message?.error ? 'error' : 'notice'}>
        {message?.text}
      </div>
      {confirming && (
        <MergeConfirmation
          match={confirming}
          onMerge={(target) => resolve(confirming, 'MERGE_CONSTITUENT', t.merged, target)}
          onCancel={() => setConfirming(undefined)}
        />
      )}
      {!matches && <p role="status">{t.loading}</p>}
      {typeof matches === 'string' && (
        <p role="alert" class="error">
          {matches}
        </p>
      )}
      {Array.isArray(matches) &&
        !confirming &&
        (matches.length === 0 ? (
          <p>{t.noMatches}</p>
        ) : (
          <ul class="timeline">
            {matches.map((match) => (
              <li key={match.id}>
                <p>
                  {side(match, 'constituent')} · {side(match, 'candidate')}
                </p>
                <p class="meta">
                  {t.duplicateReasons}: {match.reasons.map((reason) => t.reasons[reason] ?? reason).join(', ')}
                </p>
                {match.constituent && match.candidate && (
                  <button type="button" onClick={() => setConfirming(match)}>
                    {t.mergeEllipsis}
                  </button>
                )}{' '}
                <button type="button" class="secondary" onClick={() => void resolve(match, 'MERGE_HOUSEHOLD', t.householdJoined)}>
                  {t.sameHousehold}
                </button>{' '}
                <button type="button" class="secondary" onClick={() => void resolve(match, 'DISMISS', t.dismissed)}>
                  {t.notSamePerson}
                </button>
              </li>
            ))}
          </ul>
        ))}
    </>
  )
}

function side(match: HouseholdMatch, which: 'constituent' | 'candidate') {
  const person = match[which]
  return person ? <a href={href(['constituents', person.id])}>{personName(person)}</a> : t.mergedAway
}

/** Both records side by side; the member chooses the one that stays, the other is merged into it and removed. */
function MergeConfirmation({
  match,
  onMerge,
  onCancel,
}: {
  match: HouseholdMatch
  onMerge: (target: string) => unknown
  onCancel: () => void
}) {
  const [target, setTarget] = useState(match.candidateConstituentId)
  const people = [match.constituent!, match.candidate!]
  return (
    <section aria-labelledby="merge-title" class="confirm">
      <h2 id="merge-title">{t.mergeTitle}</h2>
      <p>{t.mergeExplain}</p>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void onMerge(target)
        }}
      >
        <fieldset>
          <legend>{t.keepWhich}</legend>
          <div class="side-by-side">
            {people.map((person) => (
              <div key={person.id}>
                <div class="check">
                  <input
                    type="radio"
                    id={`keep-${person.id}`}
                    name="keep"
                    value={person.id}
                    checked={target === person.id}
                    onChange={() => setTarget(person.id)}
                  />
                  <label for={`keep-${person.id}`}>{t.keep(personName(person))}</label>
                </div>
                <PersonDetails person={person} />
              </div>
            ))}
          </div>
        </fieldset>
        <button type="submit">{t.confirmMerge}</button>{' '}
        <button type="button" class="secondary" onClick={onCancel}>
          {t.cancel}
        </button>
      </form>
    </section>
  )
}
