import { GRANTS, VALUES } from '../../api-constants'
import { useState } from 'preact/hooks'
import type { GrantedProfile, Member, Partner, Permission, Profile, Role } from '../shared/api'
import { t } from '../shared/i18n'

const ROLES = VALUES.NewMember.role
const PROFILES = VALUES.NewMember.profiles
/** The roles a partner_admin gives: the agents and volunteers of its own partner (docs/api/access.md "Permissions"). */
const PARTNER_STAFF: Role[] = ['partner_agent', 'volunteer']
const PARTNER_ROLES: Role[] = ['partner_admin', ...PARTNER_STAFF]

const isOrgAdmin = (actor: Profile) => actor.role === 'org_admin'

/** What an invitation is mostly about: a role without these is told it lacks them. */
const DAILY_WORK: Permission[] = ['needs:create', 'needs:update', 'needs:send-sms', 'constituents:read']

/** Permissions in words, joined as a sentence ("create needs, text people and read reports"); those without words left out. */
function actionsText(permissions: readonly string[], last: 'and' | 'or'): string {
  const words = t.membersScreen.grants
  const said = [...new Set(permissions.flatMap((p) => words.actions[p as Permission] ?? []))]
  return said.length < 2 ? (said[0] ?? '') : `${said.slice(0, -1).join(', ')} ${words[last]} ${said.at(-1)}`
}

/** What the role lets a member do, from the permissions table, and the daily work it does not. */
function RoleGrants({ role, id }: { role: Role; id: string }) {
  const words = t.membersScreen.grants
  const granted: readonly string[] = GRANTS.NewMember.roles[role]
  const missing = DAILY_WORK.filter((p) => !granted.includes(p))
  return (
    <div id={id} class="meta" aria-live="polite">
      <p>{words.may(t.membersScreen.roles[role], actionsText(granted, 'and'))}</p>
      {PARTNER_ROLES.includes(role) && <p>{words.ownPartner}</p>}
      {missing.length > 0 && <p>{words.mayNot(actionsText(missing, 'or'))}</p>}
    </div>
  )
}

/** Whether the actor may change this member: an org_admin anyone, a partner_admin its own partner's agents and volunteers. */
export function mayChange(actor: Profile, member: Member): boolean {
  if (!actor.permissions.includes('members:manage')) return false
  return isOrgAdmin(actor) || (member.partnerId === actor.partnerId && PARTNER_STAFF.includes(member.role))
}

/** What the member's fields send: a partner only with a partner role (a partner_admin's own). */
export function memberFieldsOf(form: FormData, actor: Profile) {
  const role = String(form.get('role')) as Role
  const partnerId = isOrgAdmin(actor) ? String(form.get('partnerId') ?? '') : actor.partnerId
  return {
    role,
    ...(PARTNER_ROLES.includes(role) && partnerId ? { partnerId } : {}),
    profiles: PROFILES.filter((profile) => form.get(`profile-${profile}`) === 'on'),
  }
}

/**
 * Role, partner and profiles, offering only what the actor may give: an org_admin any role, partner and
 * profile; a partner_admin its own partner's agent or volunteer, and the profiles it holds itself (those the
 * member has already may stay or go). The server still decides.
 */
export function MemberFields({
  actor,
  partners,
  member,
  idPrefix,
}: {
  actor: Profile
  partners: Partner[]
  member?: Member
  idPrefix: string
}) {
  const roles = isOrgAdmin(actor) ? ROLES : PARTNER_STAFF
  const [role, setRole] = useState<Role>(member?.role ?? roles[roles.length - 1]!)
  const offered = PROFILES.filter((p) => isOrgAdmin(actor) || actor.profiles.includes(p) || member?.profiles?.includes(p))
  const id = (name: string) => `${idPrefix}-${name}`
  const s = t.membersScreen
  return (
    <>
      <label for={id('role')}>{s.role}</label>
      <select
        id={id('role')}
        name="role"
        value={role}
        aria-describedby={id('role-grants')}
        onChange={(event) => setRole(event.currentTarget.value as Role)}
      >
        {roles.map((option) => (
          <option key={option} value={option}>
            {s.roles[option]}
          </option>
        ))}
      </select>
      <RoleGrants role={role} id={id('role-grants')} />
      {isOrgAdmin(actor) && PARTNER_ROLES.includes(role) && (
        <>
          <label for={id('partner')}>{t.partner}</label>
          <select id={id('partner')} name="partnerId" required>
            <option value="">{t.choosePartner}</option>
            {partners
              .filter((partner) => !partner.isArchived || partner.id === member?.partnerId)
              .map((partner) => (
                <option key={partner.id} value={partner.id} selected={partner.id === member?.partnerId}>
                  {partner.name}
                </option>
              ))}
          </select>
        </>
      )}
      {offered.length > 0 && (
        <fieldset>
          <legend>{s.profiles}</legend>
          {offered.map((profile) => (
            <div class="check" key={profile}>
              <input
                id={id(profile)}
                name={`profile-${profile}`}
                type="checkbox"
                aria-describedby={id(`${profile}-grants`)}
                defaultChecked={Boolean(member?.profiles?.includes(profile))}
              />
              <label for={id(profile)}>{s.profileNames[profile]}</label>
              <span id={id(`${profile}-grants`)} class="meta">
                {s.grants.adds(actionsText(GRANTS.NewMember.profiles[profile as GrantedProfile], 'and'))}
              </span>
            </div>
          ))}
        </fieldset>
      )}
    </>
  )
}
