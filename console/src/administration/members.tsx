import { MAX_LENGTH } from '../../api-constants'
import { useEffect, useState } from 'preact/hooks'
import { client, type Member, type Profile } from '../shared/api'
import { formatDateTime, partnerName, usePartners, useProfile } from '../shared/data'
import { LANGUAGES, language, t, type Language } from '../shared/i18n'
import { MemberFields, memberFieldsOf, mayChange } from './member-fields'
import { memberLabel, MemberPanel } from './member-panel'
import { PAGE_SIZE, pageOf, Paging } from '../shared/paging'
import { go } from '../shared/router'
import { authorized } from '../shared/session'
import { Answered, failure, type Outcome } from '../shared/outcome'
import { Table } from '../shared/table'

/** `show` of the address: the active members (by default), the deactivated ones, or all. */
const SHOWN = { active: true, deactivated: false, all: undefined } as const
type Shown = keyof typeof SHOWN

/** The members the member may list (a partner_admin its own partner's), with what it may change on each. */
export function Members({ query }: { query: URLSearchParams }) {
  const profile = useProfile()
  const partners = usePartners()
  const s = t.membersScreen
  const asked = query.get('show') ?? ''
  const show: Shown = Object.hasOwn(SHOWN, asked) ? (asked as Shown) : 'active'
  const page = pageOf(query)
  const [version, setVersion] = useState(0)
  const key = JSON.stringify([show, page, version])
  const [answer, setAnswer] = useState<{ key: string; result: { members: Member[]; total: number } | string }>()
  const result = answer?.key === key ? answer.result : undefined
  const [editing, setEditing] = useState<Member>()
  const [outcome, setOutcome] = useState<Outcome>()
  useEffect(() => {
    let current = true
    const active = SHOWN[show]
    void authorized(() =>
      client.GET('/api/members', { params: { query: { page, limit: PAGE_SIZE, ...(active === undefined ? {} : { active }) } } }),
    ).then(({ data, error, response }) => {
      if (!current) return
      const total = Number(response.headers.get('x-total-count') ?? data?.length ?? 0)
      setAnswer({ key, result: data ? { members: data, total } : failure(response.status, error).text })
    })
    return () => {
      current = false
    }
  }, [key])

  const done = (next: Outcome) => {
    setOutcome(next)
    if (next.error) return
    setEditing(undefined)
    setVersion((v) => v + 1)
  }

  return (
    <>
      <h2>{t.adminSections.members}</h2>
      <div role="alert">{outcome?.error && <p class="error">{outcome.text}</p>}</div>
      <div role="status" class="notice">
        {outcome && !outcome.error && outcome.text}
      </div>
      {editing && profile && (
        <MemberPanel
          key={editing.id}
          actor={profile}
          member={editing}
          partners={partners}
          onDone={done}
          onCancel={() => setEditing(undefined)}
        />
      )}
      <form class="filters" aria-label={t.filters} onSubmit={(event) => event.preventDefault()}>
        <div>
          <label for="members-shown">{s.show}</label>
          <select id="members-shown" value={show} onChange={(event) => go(['admin', 'members'], { show: event.currentTarget.value })}>
            {(Object.keys(SHOWN) as Shown[]).map((option) => (
              <option key={option} value={option}>
                {s[option]}
              </option>
            ))}
          </select>
        </div>
      </form>
      <Answered answer={result}>
        {(result) => (
          <>
            <Table label={t.adminSections.members} columns={[t.name, s.role, t.partner, s.profiles, s.state, s.lastLogin]}>
              {result.members.map((member) => (
                <tr key={member.id}>
                  <td>
                    {memberLabel(member)}
                    {member.fullName && <div class="meta">{member.email}</div>}
                    {profile && mayChange(profile, member) && (
                      <div>
                        <button
                          type="button"
                          class="secondary"
                          aria-label={s.change(memberLabel(member))}
                          onClick={() => setEditing(member)}
                        >
                          {s.changeShort}
                        </button>
                      </div>
                    )}
                  </td>
                  <td>{s.roles[member.role]}</td>
                  <td>{member.partnerId ? (member.partnerName ?? partnerName(partners, member.partnerId)) : s.none}</td>
                  <td>{member.profiles?.length ? member.profiles.map((p) => s.profileNames[p]).join(', ') : s.none}</td>
                  <td>{!member.active ? s.deactivated : member.isConfirmed ? s.active : s.invited}</td>
                  <td class="wraps">{member.lastLoginAt ? formatDateTime(member.lastLoginAt, language) : s.never}</td>
                </tr>
              ))}
            </Table>
            {result.members.length === 0 && <p>{s.noMembers}</p>}
            <Paging path={['admin', 'members']} filters={{ show }} page={page} total={result.total} />
          </>
        )}
      </Answered>
      {profile?.permissions.includes('members:manage') && <InviteMember actor={profile} onDone={done} />}
    </>
  )
}

/** Adds a member and mails the invitation, with the roles, partner and profiles the actor may give. */
function InviteMember({ actor, onDone }: { actor: Profile; onDone: (outcome: Outcome) => void }) {
  const partners = usePartners()
  const s = t.membersScreen

  async function invite(event: Event) {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    const data = new FormData(form)
    const fullName = String(data.get('fullName')).trim()
    const body = {
      email: String(data.get('email')).trim(),
      language: String(data.get('language')) as Language,
      ...(fullName ? { fullName } : {}),
      ...memberFieldsOf(data, actor),
    }
    const { data: invited, error, response } = await authorized(() => client.POST('/api/members', { body }))
    if (!invited) return onDone(failure(response.status, error))
    // The next invitation is another person's: its role, partner and language stay as chosen.
    for (const name of ['email', 'fullName']) (form.elements.namedItem(name) as HTMLInputElement).value = ''
    onDone({ text: s.invitedNotice(invited.email), error: false })
  }

  return (
    <section aria-labelledby="invite-title" class="narrow-section">
      <h3 id="invite-title">{s.invite}</h3>
      <form onSubmit={invite}>
        <label for="invite-email">{t.email}</label>
        <input id="invite-email" name="email" type="email" autocomplete="off" required />
        <label for="invite-name">{s.fullName}</label>
        <input id="invite-name" name="fullName" autocomplete="off" maxLength={MAX_LENGTH.NewMember.fullName} />
        <label for="invite-language">{s.inviteLanguage}</label>
        <select id="invite-language" name="language">
          {(Object.keys(LANGUAGES) as Language[]).map((code) => (
            <option key={code} value={code} lang={code} selected={code === language}>
              {LANGUAGES[code].languageName}
            </option>
          ))}
        </select>
        <MemberFields actor={actor} partners={partners} idPrefix="invite" />
        <button type="submit">{s.send}</button>
      </form>
    </section>
  )
}
