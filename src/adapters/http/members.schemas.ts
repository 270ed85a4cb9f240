import { t } from 'elysia'
import { GRANTS, PERMISSION_NAMES } from '../../domain/auth/permissions'
import { PROFILES, ROLES } from '../../domain/auth/roles'
import { PASSWORD, PROFILE_LIST, type MemberView } from '../../domain/members/member'
import { MAIL_LANGUAGES } from '../../domain/members/notifications'
import { EMAIL, HTTP_URL, NAME, PHONE } from '../../domain/shared/fields'
import { PHONE_INPUT } from '../../domain/shared/phone'
import { Body, List, Named, OneOf, Text, Uuid } from './common.schemas'

// docs/api/access.md "Members and invitations"
export const RoleSchema = Named('Role', OneOf(ROLES))
const Profiles = t.Array(OneOf(PROFILES), PROFILE_LIST)
const Phone = t.String({
  ...PHONE_INPUT,
  description: "Kept and answered in E.164; given in international form or as a national number of the organization's defaultCountry",
})
const Email = t.String(EMAIL)

export const MemberSchema = Named(
  'Member',
  t.Object({
    id: Uuid,
    email: Text(EMAIL),
    fullName: t.Optional(Text(NAME)),
    role: RoleSchema,
    partnerId: t.Optional(Uuid),
    partnerName: t.Optional(Text(NAME)),
    profiles: t.Optional(List(OneOf(PROFILES), PROFILE_LIST)),
    isConfirmed: t.Boolean(),
    active: t.Boolean({ description: 'false once deactivated: the member can neither log in nor act' }),
    phone: t.Optional(Text(PHONE)),
    pendingEmail: t.Optional(
      Text(EMAIL, {
        description:
          'Only in the answer of a change that gave a new email: the address a confirmation link was sent to. `email` becomes it once the link is followed',
      }),
    ),
    lastLoginAt: t.Optional(
      t.String({
        format: 'date-time',
        maxLength: 40,
        description: 'When a session of the member last began (a login, an accepted invitation or a password reset); absent until one has',
      }),
    ),
  }),
)

/** A member as the API answers it: times as RFC 3339 text. */
export function memberJson({ lastLoginAt, ...member }: MemberView) {
  return { ...member, ...(lastLoginAt ? { lastLoginAt: lastLoginAt.toISOString() } : {}) }
}

// `x-permissions`: what each role lets a member do by itself, and what each profile adds (the permissions table read
// by role), so a form that gives them can explain them.
export const InviteMemberBody = Named('NewMember', {
  ...Body({
    email: Email,
    role: RoleSchema,
    fullName: t.Optional(t.String(NAME)),
    partnerId: t.Optional(Uuid),
    phone: t.Optional(Phone),
    appUrl: t.Optional(
      t.String({
        ...HTTP_URL,
        description:
          "Base URL of the app the invitation link opens (its /accept-invite page): on PUBLIC_BASE_URL's origin or one of the organization's appOrigins, with no user or password, backslash, query or fragment, else 400 at /appUrl. PUBLIC_BASE_URL by default",
      }),
    ),
    profiles: t.Optional(Profiles),
    language: t.Optional(
      OneOf(MAIL_LANGUAGES, {
        description: "The language of the member's mails, this invitation first; the member changes it later. English by default",
      }),
    ),
  }),
  'x-permissions': GRANTS,
})

export const ResendInvitationBody = Named('InvitationResend', Body({ appUrl: InviteMemberBody.properties.appUrl }))

const NewEmail = t.String({
  ...EMAIL,
  description: 'The new address: a one-time link (valid 24 hours) is mailed to it, and the email changes once it is followed',
})

export const UpdateMemberBody = Named(
  'MemberUpdate',
  Body({
    fullName: t.Optional(t.String(NAME)),
    email: t.Optional(NewEmail),
    role: t.Optional(RoleSchema),
    partnerId: t.Optional(Uuid),
    phone: t.Optional(t.Union([Phone, t.Null()])),
    profiles: t.Optional(Profiles),
    active: t.Optional(
      t.Boolean({ description: "true restores a deactivated member's access, with the same password; false deactivates, as DELETE does" }),
    ),
  }),
)

const NotificationChoices = {
  newNeeds: t.Boolean({
    description: "A need arrived through public intake or the form (its partner's members, and who sees the whole organization)",
  }),
  assignedToMe: t.Boolean({ description: 'Someone else assigned a need to me' }),
  dailyDigest: t.Boolean({ description: "The daily digest of my overdue needs and my partner's unassigned ones" }),
}
const Language = OneOf(MAIL_LANGUAGES, { description: 'The language of my mails' })

export const ProfileSchema = Named(
  'Profile',
  t.Object({
    id: Uuid,
    email: Text(EMAIL),
    fullName: t.Optional(Text(NAME)),
    phone: t.Optional(Text(PHONE)),
    language: Language,
    notifications: t.Object(NotificationChoices, { description: "What I am mailed about: my choices over my role's defaults" }),
    role: RoleSchema,
    partnerId: t.Optional(Uuid),
    profiles: List(OneOf(PROFILES), PROFILE_LIST),
    permissions: t.Array(OneOf(PERMISSION_NAMES), {
      maxItems: PERMISSION_NAMES.length,
      description:
        'What the member may do, by the permissions table (the API reference, "Permissions"): a client shows only these actions; the server still decides each request (and its scope)',
    }),
  }),
)

export const UpdateProfileBody = Named(
  'ProfileUpdate',
  Body({
    fullName: t.Optional(t.String(NAME)),
    phone: t.Optional(t.Union([Phone, t.Null()])),
    language: t.Optional(Language),
    notifications: t.Optional(
      t.Partial(t.Object(NotificationChoices, { additionalProperties: false }), {
        description: 'The kinds to change; the others stay as they are',
      }),
    ),
  }),
)

export const ChangePasswordBody = Named(
  'PasswordChange',
  Body({
    currentPassword: t.String({ minLength: 1, maxLength: PASSWORD.maxLength }),
    newPassword: t.String({ ...PASSWORD, description: `At least ${PASSWORD.minLength} characters` }),
  }),
)

export const EmailChangeBody = Named('EmailChangeRequest', Body({ email: NewEmail }))

export const EmailChangeSchema = Named(
  'EmailChange',
  t.Object({
    status: OneOf(['confirmation_sent', 'changed'] as const, {
      description:
        "`confirmation_sent`: the link is on its way to `email`, and the email is unchanged until it is followed; `changed`: the first start's made-up address was replaced at once",
    }),
    email: Text(EMAIL),
  }),
)

export const AcceptInviteBody = Named(
  'InvitationAcceptance',
  Body({
    token: t.String({ minLength: 1, maxLength: 512 }),
    password: t.String({ ...PASSWORD, description: `At least ${PASSWORD.minLength} characters` }),
  }),
)
