import { useState } from 'preact/hooks'
import { client, STATUSES, type Member, type Need, type Partner, type Profile, type Status } from '../shared/api'
import { may, memberName, partnerName } from '../shared/data'
import { t } from '../shared/i18n'

/** Runs a call against the API and says what came of it; true when it succeeded. */
export type Act = (call: () => Promise<{ error?: unknown; response: Response }>, done: string) => Promise<boolean>

interface Props {
  need: Need
  profile: Profile | undefined
  members: Member[]
  partners: Partner[]
  act: Act
}

/**
 * What a member may change on a need, each control shown only when the member's permissions allow it:
 * status, assignee, partner and confidentiality with `needs:update`, the member picker with `members:list`.
 */
export function NeedActions({ need, profile, members, partners, act }: Props) {
  if (!may(profile, 'needs:update')) return null
  const id = need.id
  const put = (body: { status?: Status; assignedTo?: string | null; partnerId?: string; isConfidential?: boolean }, done: string) =>
    act(() => client.PUT('/api/needs/{id}', { params: { path: { id } }, body }), done)
  const names = { ...t, nobody: t.nobodyAssigned }
  // Oneself is "you" after "assigned to" ("Asignada a usted"), not the name "Me" ("Yo") the lists show.
  const assigneeOutcome = (assignee: string) =>
    !assignee ? t.unassigned : assignee === profile?.id ? t.assigned : t.assignedTo_(memberName(members, profile, assignee, names))

  return (
    <section aria-labelledby="actions-title" class="no-print">
      <h2 id="actions-title">{t.actions}</h2>
      <Choice
        key={`status-${need.status}`}
        id="status"
        label={t.status}
        button={t.saveStatus}
        current={need.status}
        options={STATUSES.map((value) => [value, t.statuses[value]])}
        onChoose={(status) => put({ status: status as Status }, t.statusSaved)}
      />
      {profile && need.assignedTo !== profile.id && (
        <button type="button" onClick={() => void put({ assignedTo: profile.id }, t.assigned)}>
          {t.assignToMe}
        </button>
      )}
      {members.length > 0 && (
        <Choice
          key={`assignee-${need.assignedTo}`}
          id="assignee"
          label={t.assignTo}
          button={t.assign}
          current={need.assignedTo ?? ''}
          // A deactivated member can act on nothing: offered only while they still hold the need.
          options={[
            ['', t.nobodyAssigned],
            ...members
              .filter((m) => m.active || m.id === need.assignedTo)
              .map((m): [string, string] => [m.id, memberName(members, profile, m.id, names)]),
          ]}
          onChoose={(assignee) => put({ assignedTo: assignee || null }, assigneeOutcome(assignee))}
        />
      )}
      <Choice
        key={`partner-${need.partnerId}`}
        id="move-partner"
        label={t.moveToPartner}
        button={t.move}
        current={need.partnerId}
        options={partners.map((p) => [p.id, p.name])}
        onChoose={(partnerId) => put({ partnerId }, t.moved(partnerName(partners, partnerId)))}
      />
      <button
        type="button"
        class="secondary"
        onClick={() => void put({ isConfidential: !need.isConfidential }, need.isConfidential ? t.madePublic : t.madeConfidential)}
      >
        {need.isConfidential ? t.markNotConfidential : t.markConfidential}
      </button>
    </section>
  )
}

/** A value chosen from a list and saved with its button. */
function Choice({
  id,
  label,
  button,
  current,
  options,
  onChoose,
}: {
  id: string
  label: string
  button: string
  current: string
  options: Array<[string, string]>
  onChoose: (value: string) => unknown
}) {
  const [value, setValue] = useState(current)
  return (
    <form
      class="inline"
      onSubmit={(event) => {
        event.preventDefault()
        void onChoose(value)
      }}
    >
      <div>
        <label for={id}>{label}</label>
        <select id={id} name={id} value={value} onChange={(event) => setValue(event.currentTarget.value)}>
          {options.map(([key, text]) => (
            <option key={key} value={key}>
              {text}
            </option>
          ))}
        </select>
      </div>
      <button type="submit">{button}</button>
    </form>
  )
}
