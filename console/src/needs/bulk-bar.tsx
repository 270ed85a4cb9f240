import { useEffect, useState } from 'preact/hooks'
import { client, problemText, STATUSES, type Member, type Need, type Partner, type Profile, type Status } from '../shared/api'
import { may, memberName } from '../shared/data'
import { t } from '../shared/i18n'
import { authorized } from '../shared/session'

/** The needs ticked in the inbox, by id: emptied whenever the list shown changes (`key`). */
export function useSelection(key: string) {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set())
  useEffect(() => setIds(new Set()), [key])
  const toggle = (id: string, on: boolean) =>
    setIds((before) => {
      const after = new Set(before)
      if (on) after.add(id)
      else after.delete(id)
      return after
    })
  return { ids, toggle, set: setIds }
}
export type Selection = ReturnType<typeof useSelection>

/** A row's box, for those who may change needs. */
export function SelectNeed({ need, selection }: { need: Need; selection: Selection }) {
  return (
    <input
      type="checkbox"
      aria-label={t.bulk.selectNeed(need.referenceNumber)}
      checked={selection.ids.has(need.id)}
      onChange={(event) => selection.toggle(need.id, event.currentTarget.checked)}
    />
  )
}

interface Props {
  needs: Need[]
  selection: Selection
  profile: Profile | undefined
  members: Member[]
  partners: Partner[]
  /** Called once a change was made to any need: the inbox reads its page again. */
  onChanged: () => void
}

/**
 * One status, assignee or partner set on every need ticked, through `POST /api/needs/bulk`; what came of
 * each need is said by its reference number, a refusal with the service's reason.
 */
export function BulkBar({ needs, selection, profile, members, partners, onChanged }: Props) {
  const [report, setReport] = useState<{ lines: string[]; error: boolean }>()
  if (!may(profile, 'needs:update') || (needs.length === 0 && !report)) return null
  const names = { ...t, nobody: t.nobodyAssigned }
  const referenceOf = (id: string) => needs.find((need) => need.id === id)?.referenceNumber ?? id
  const assignees = members.length > 0 ? members.map((m) => m.id) : profile ? [profile.id] : []
  const count = selection.ids.size

  async function apply(form: HTMLFormElement) {
    const data = new FormData(form)
    const status = String(data.get('status') ?? '')
    const assignee = String(data.get('assignee') ?? '')
    const partnerId = String(data.get('partner') ?? '')
    const set = {
      ...(status ? { status: status as Status } : {}),
      ...(assignee ? { assignedTo: assignee === 'nobody' ? null : assignee } : {}),
      ...(partnerId ? { partnerId } : {}),
    }
    if (Object.keys(set).length === 0) return setReport({ lines: [t.bulk.chooseSomething], error: true })
    const ids = [...selection.ids]
    const { data: answer, error } = await authorized(() => client.POST('/api/needs/bulk', { body: { ids, set } }))
    if (!answer) return setReport({ lines: [t.failed(problemText(error))], error: true })
    const lines = answer.results.map((result) =>
      result.status === 200 ? t.bulk.done(referenceOf(result.id)) : t.bulk.refused(referenceOf(result.id), problemText(result.problem)),
    )
    const changed = answer.results.filter((result) => result.status === 200).length
    setReport({ lines: [t.bulk.summary(changed, ids.length), ...lines], error: changed < ids.length })
    form.reset()
    if (changed > 0) onChanged()
  }

  return (
    <section class="bulk-bar" aria-labelledby="bulk-title">
      <h2 id="bulk-title">{t.bulk.title}</h2>
      <p>{t.bulk.selected(count)}</p>
      <button type="button" onClick={() => selection.set(new Set(needs.map((need) => need.id)))}>
        {t.bulk.selectPage}
      </button>
      {count > 0 && (
        <button type="button" onClick={() => selection.set(new Set())}>
          {t.bulk.clear}
        </button>
      )}
      {count > 0 && (
        <form
          class="filters"
          onSubmit={(event) => {
            event.preventDefault()
            void apply(event.currentTarget)
          }}
        >
          <Pick id="bulk-status" name="status" label={t.status} options={STATUSES.map((s) => [s, t.statuses[s]])} />
          <Pick
            id="bulk-assignee"
            name="assignee"
            label={t.assignTo}
            options={[
              ['nobody', t.nobodyAssigned],
              ...assignees.map((id): [string, string] => [id, memberName(members, profile, id, names)]),
            ]}
          />
          <Pick id="bulk-partner" name="partner" label={t.partner} options={partners.map((p): [string, string] => [p.id, p.name])} />
          <button type="submit">{t.bulk.apply(count)}</button>
        </form>
      )}
      <div role="status" class={report?.error ? 'error' : 'notice'}>
        {report && (
          <ul>
            {report.lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        )}
      </div>
    </section>
  )
}

function Pick(props: { id: string; name: string; label: string; options: Array<[string, string]> }) {
  return (
    <div>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} name={props.name}>
        <option value="">{t.bulk.unchanged}</option>
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  )
}
