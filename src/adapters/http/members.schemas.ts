import { t } from 'elysia'
import { PROFILES, ROLES } from '../../domain/auth/roles'
import { E164_PATTERN } from '../../domain/constituents/contact'
import { Body, NAME, OneOf, Uuid } from './common.schemas'

// docs/api.md
export const RoleSchema = OneOf(ROLES)
const Profiles = t.Array(OneOf(PROFILES), { maxItems: PROFILES.length, uniqueItems: true })
const Phone = t.String({ pattern: E164_PATTERN, maxLength: 16, description: 'E.164' })
const Email = t.String({ pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', maxLength: 254 })

export const MemberSchema = t.Object({
  id: Uuid,
  email: t.String(),
  fullName: t.Optional(t.String()),
  role: RoleSchema,
  partnerId: t.Optional(Uuid),
  partnerName: t.Optional(t.String()),
  profiles: t.Optional(t.Array(OneOf(PROFILES))),
  isConfirmed: t.Boolean(),
  phone: t.Optional(t.String()),
})

export const InviteMemberBody = Body({
  email: Email,
  role: RoleSchema,
  fullName: t.Optional(t.String(NAME)),
  partnerId: t.Optional(Uuid),
  phone: t.Optional(Phone),
  appUrl: t.Optional(t.String({ pattern: '^https?://[^\\s]+$', maxLength: 2000, description: 'Base URL of the app the invitation link opens' })),
  profiles: t.Optional(Profiles),
})

export const ResendInvitationBody = Body({ appUrl: InviteMemberBody.properties.appUrl })

export const UpdateMemberBody = Body({
  role: RoleSchema,
  partnerId: t.Optional(Uuid),
  phone: t.Optional(t.Union([Phone, t.Null()])),
  profiles: t.Optional(Profiles),
})

export const ProfileSchema = t.Object({ id: Uuid, email: t.String(), fullName: t.Optional(t.String()), phone: t.Optional(t.String()) })

export const UpdateProfileBody = Body({ fullName: t.String(NAME), phone: t.Optional(t.Union([Phone, t.Null()])) })

export const AcceptInviteBody = Body({
  token: t.String({ minLength: 1, maxLength: 512 }),
  password: t.String({ minLength: 12, maxLength: 1024, description: 'At least 12 characters' }),
})

