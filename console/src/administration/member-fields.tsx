import { VALUES } from '../../api-constants'
import { useState } from 'preact/hooks'
import type { Member, Partner, Profile, Role } from '../shared/api'
import { t } from '../shared/i18n'

const ROLES = VALUES.NewMember.role
const PROFILES = VALUES.NewMember.profiles
/** The roles a partner_admin gives: the agents and volunteers of its own partner (docs/api/access.md "Permissions"). */
const PARTNER_STAFF: Role[] = ['partner_agent', 'volunteer']
const PARTNER_ROLES: Role[] = ['partner_admin', ...PARTNER_STAFF]

const isOrgAdmin = (actor: Profile) => actor.role === 'org_admin'

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
      <select id={id('role')} name="role" value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
        {roles.map((option) => (
          <option key={option} value={option}>
            {s.roles[option]}
          </option>
        ))}
      </select>
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
                defaultChecked={Boolean(member?.profiles?.includes(profile))}
              />
              <label for={id(profile)}>{s.profileNames[profile]}</label>
            </div>
          ))}
        </fieldset>
      )}
    </>
  )
}
