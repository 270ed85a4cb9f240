import { MAX_LENGTH } from '../../api-constants'
import type { ComponentChildren } from 'preact'
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { client, type Partner, type Profile } from '../shared/api'
import { OutcomeLine, useOutcome } from '../shared/outcome'
import { forgetPartners, may, readPartners } from '../shared/data'
import { t } from '../shared/i18n'
import { Table } from '../shared/table'

type PartnerFields = { name: string; slaHours: number; keywords: string[]; isDefault?: boolean }

/**
 * The partners: the organization's admin adds, edits and archives them and chooses the default; a partner
 * admin edits its own partner's details only (the default and archiving are the organization's decisions).
 */
export function PartnersScreen({ profile }: { profile: Profile }) {
  const [partners, setPartners] = useState<Partner[]>()
  const [editing, setEditing] = useState<string>()
  // A member whose scope is one partner edits that one; the whole organization's admin every one.
  const wholeOrganization = !profile.partnerId
  const editable = (partner: Partner) => wholeOrganization || partner.id === profile.partnerId
  async function load() {
    forgetPartners()
    await read(readPartners, setPartners)
  }
  const { outcome, read, run } = useOutcome(load)
  useEffect(() => void load(), [])

  const save = async (id: string, body: Partial<PartnerFields> & { isArchived?: boolean }, done: string) => {
    const saved = await run(() => client.PUT('/api/partners/{id}', { params: { path: { id } }, body }), done)
    if (saved) setEditing(undefined)
    return saved
  }
  const chosen = partners?.find((partner) => partner.id === editing)

  return (
    <section aria-labelledby="partners-title">
      <h2 id="partners-title">{t.adminSections.partners}</h2>
      <OutcomeLine outcome={outcome} />
      {!partners ? (
        !outcome?.error && <p role="status">{t.loading}</p>
      ) : (
        <Table label={t.adminSections.partners} columns={[t.name, t.slaHours, t.keywords, t.state]} actions={t.rowActions}>
          {partners.map((partner) => (
            <tr key={partner.id}>
              <td>{partner.name}</td>
              <td>{partner.slaHours}</td>
              <td class="wrap">{partner.keywords?.join(', ') || '—'}</td>
              <td>{partner.isArchived ? t.archived : partner.isDefault ? t.defaultPartner : t.active}</td>
              <td>
                {editable(partner) && (
                  <button type="button" class="secondary small" onClick={() => setEditing(partner.id)}>
                    {t.editNamed(partner.name)}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {chosen && (
        <PartnerForm
          key={chosen.id}
          title={t.editNamed(chosen.name)}
          partner={chosen}
          wholeOrganization={wholeOrganization}
          submit={t.save}
          onSubmit={(fields) => save(chosen.id, fields, t.saved)}
          onCancel={() => setEditing(undefined)}
        >
          {wholeOrganization && !chosen.isDefault && (
            <button
              type="button"
              class="secondary"
              onClick={() =>
                void save(chosen.id, { isArchived: !chosen.isArchived }, chosen.isArchived ? t.partnerRestored : t.partnerArchived)
              }
            >
              {chosen.isArchived ? t.restorePartner : t.archivePartner}
            </button>
          )}
        </PartnerForm>
      )}
      {may(profile, 'partners:create') && (
        <PartnerForm
          title={t.addPartner}
          wholeOrganization
          submit={t.addPartner}
          onSubmit={(fields) => run(() => client.POST('/api/partners', { body: fields }), t.partnerAdded(fields.name))}
        />
      )}
    </section>
  )
}

/** A partner's fields: keywords one list, comma-separated; the default only for the whole organization's admin. */
function PartnerForm(props: {
  title: string
  partner?: Partner
  wholeOrganization: boolean
  submit: string
  /** Whether it was saved: a new partner's form is then emptied. */
  onSubmit: (fields: PartnerFields) => Promise<unknown>
  onCancel?: () => void
  children?: ComponentChildren
}) {
  const { partner, title } = props
  const prefix = partner ? `partner-${partner.id}` : 'new-partner'
  const first = useRef<HTMLInputElement>(null)
  // A partner's form opens below the table: the keyboard goes to its first field, before the paint, so no
  // key pressed meanwhile lands elsewhere.
  useLayoutEffect(() => {
    if (partner) first.current?.focus()
  }, [])
  return (
    <form
      class="panel"
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault()
        const element = event.currentTarget
        const form = new FormData(element)
        const keywords = String(form.get('keywords'))
          .split(',')
          .map((word) => word.trim())
          .filter(Boolean)
        void props
          .onSubmit({
            name: String(form.get('name')).trim(),
            slaHours: Number(form.get('slaHours')),
            keywords,
            ...(props.wholeOrganization && !partner?.isDefault ? { isDefault: form.get('isDefault') === 'on' } : {}),
          })
          .then((saved) => {
            if (saved && !partner) element.reset()
          })
      }}
    >
      <h3>{title}</h3>
      <label for={`${prefix}-name`}>{t.name}</label>
      <input
        ref={first}
        id={`${prefix}-name`}
        name="name"
        defaultValue={partner?.name}
        maxLength={MAX_LENGTH[partner ? 'PartnerUpdate' : 'NewPartner'].name}
        required
      />
      <label for={`${prefix}-sla`}>{t.slaHours}</label>
      <input
        id={`${prefix}-sla`}
        name="slaHours"
        type="number"
        min={1}
        max={8760}
        defaultValue={String(partner?.slaHours ?? 72)}
        required
      />
      <label for={`${prefix}-keywords`}>{t.keywords}</label>
      <input
        id={`${prefix}-keywords`}
        name="keywords"
        defaultValue={partner?.keywords?.join(', ')}
        aria-describedby={`${prefix}-keywords-hint`}
      />
      <p id={`${prefix}-keywords-hint`} class="meta">
        {t.keywordsHint}
      </p>
      {props.wholeOrganization &&
        (partner?.isDefault ? (
          <p>{t.isDefaultPartner}</p>
        ) : (
          <div class="check">
            <input id={`${prefix}-default`} name="isDefault" type="checkbox" />
            <label for={`${prefix}-default`}>{t.makeDefault}</label>
          </div>
        ))}
      <button type="submit">{props.submit}</button> {props.children}{' '}
      {props.onCancel && (
        <button type="button" class="secondary" onClick={props.onCancel}>
          {t.cancel}
        </button>
      )}
    </form>
  )
}
