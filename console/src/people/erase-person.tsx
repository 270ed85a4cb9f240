import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import { client, type Constituent } from '../shared/api'
import { formatDateTime, may, useProfile } from '../shared/data'
import { language, t } from '../shared/i18n'
import { OutcomeLine, useOutcome } from '../shared/outcome'

/**
 * Erasing a person's details (docs/privacy.md), for those who may: asked first, naming the person and what
 * erasure does and does not reach; then the screen is read again, showing the emptied record. An erased
 * person says when.
 */
export function ErasePerson({ person, name, onErased }: { person: Constituent; name: string; onErased: () => Promise<void> }) {
  const profile = useProfile()
  const [confirming, setConfirming] = useState(false)
  const { outcome, run } = useOutcome(onErased)
  const heading = useRef<HTMLHeadingElement>(null)
  // The question takes the keyboard as it opens, so the next Tab reaches its buttons.
  useLayoutEffect(() => {
    if (confirming) heading.current?.focus()
  }, [confirming])

  if (person.erasedAt)
    return (
      <>
        <OutcomeLine outcome={outcome} />
        <p>{t.erase.erasedOn(formatDateTime(person.erasedAt, language))}</p>
      </>
    )
  if (!may(profile, 'constituents:erase')) return null
  return (
    <section aria-labelledby="erase-title">
      <OutcomeLine outcome={outcome} />
      {!confirming ? (
        <button type="button" class="secondary" onClick={() => setConfirming(true)}>
          {t.erase.start}
        </button>
      ) : (
        <div class="confirm">
          <h2 id="erase-title" ref={heading} tabIndex={-1}>
            {t.erase.question(name)}
          </h2>
          <p>{t.erase.explain}</p>
          <button
            type="button"
            onClick={() =>
              void run(() => client.POST('/api/constituents/{id}/erase', { params: { path: { id: person.id } } }), t.erase.done)
            }
          >
            {t.erase.confirm}
          </button>{' '}
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>
            {t.cancel}
          </button>
        </div>
      )}
    </section>
  )
}
