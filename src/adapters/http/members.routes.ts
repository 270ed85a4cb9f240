import { Elysia, t } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import type { AuthenticationPlugin } from './authentication'
import { IdParams, PagedList, PageQuery, problems } from './common.schemas'
import {
  ChangePasswordBody,
  EmailChangeBody,
  EmailChangeSchema,
  InviteMemberBody,
  memberJson,
  MemberSchema,
  ProfileSchema,
  ResendInvitationBody,
  UpdateMemberBody,
  UpdateProfileBody,
} from './members.schemas'
import { pagedResponse } from './paging'
import { rateLimited, type RateLimits } from './rate-limits'

export function membersRoutes(useCases: UseCases['members'], authentication: AuthenticationPlugin, rateLimits: RateLimits) {
  const { invite, update, resend, list, getProfile, updateProfile, changePassword, changeEmail } = useCases

  const members = new Elysia({ name: 'members', prefix: '/api/members', detail: { tags: ['Members'] } })
    .use(authentication)
    .get(
      '',
      ({ actor, query, request, set }) =>
        pagedResponse(
          { query, request, set },
          (page) => list.execute(actor, page, query.active === undefined ? {} : { active: query.active }),
          memberJson,
        ),
      {
        auth: true,
        query: t.Object(
          {
            active: t.Optional(t.Boolean({ title: 'active', description: 'true: active members only; false: deactivated ones only' })),
            ...PageQuery,
          },
          { additionalProperties: false },
        ),
        response: { 200: PagedList(MemberSchema), ...problems(400, 401, 403) },
        detail: {
          operationId: 'listMembers',
          summary: "List members, newest first (a partner_admin sees its partner's)",
          description: 'org_admin, staff and partner_admin. Paged.',
        },
      },
    )
    .post(
      '',
      async ({ actor, body, set }) => {
        set.status = 201
        return memberJson(await invite.execute(actor, body))
      },
      {
        auth: true,
        body: InviteMemberBody,
        response: { 201: MemberSchema, ...problems(400, 401, 403, 409, 413, 415) },
        detail: {
          operationId: 'inviteMember',
          summary: 'Add a member and email a one-time invitation (valid 7 days)',
          description:
            'org_admin; a partner_admin for the agents and volunteers of its own partner. An email already in the organization is 409.',
        },
      },
    )
    .post('/:id/invitation', async ({ actor, params, body }) => memberJson(await resend.execute(actor, params.id, body?.appUrl)), {
      auth: true,
      params: IdParams,
      body: t.Optional(ResendInvitationBody),
      response: { 200: MemberSchema, ...problems(400, 401, 403, 404, 409, 413, 415) },
      detail: {
        operationId: 'resendInvitation',
        summary: 'Send a new invitation to a member who has not accepted one (an addition)',
        description: 'Who may invite the member. 409 once the member can log in.',
      },
    })
    .put('/:id', async ({ actor, params, body }) => memberJson(await update.execute(actor, params.id, body)), {
      auth: true,
      params: IdParams,
      body: UpdateMemberBody,
      response: { 200: MemberSchema, ...problems(400, 401, 403, 404, 409, 413, 415) },
      detail: {
        operationId: 'updateMember',
        summary: "Change a member's name, email, role, partner, phone or profiles, or restore a deactivated member's access",
        description:
          "Who may invite the member; profiles only those the caller may grant. Demoting or deactivating the last active org_admin is 409. `active: true` restores access with the same password. A new `email` is mailed a one-time link (24 hours) and the member's old address a notice; `email` changes once the link is followed, and until then the answer names it as `pendingEmail`. An email another member of the organization has is 409, as is a new email for a deactivated member.",
      },
    })
    .delete(
      '/:id',
      async ({ actor, params, set }) => {
        await update.execute(actor, params.id, { active: false })
        set.status = 204
      },
      {
        auth: true,
        params: IdParams,
        response: { 204: t.Void(), ...problems(400, 401, 403, 404, 409) },
        detail: {
          operationId: 'deactivateMember',
          summary: 'Deactivate a member: every session and token of theirs ends at once',
          description:
            'Who may invite the member. They stay listed (active: false), their name stays on history, notes and the audit trail, and needs assigned to them stay assigned. Their unused invitation and reset links are void. Deactivating oneself or the last active org_admin is 409; deactivating a deactivated member changes nothing.',
        },
      },
    )

  const profile = new Elysia({ name: 'profile', prefix: '/api/profile', detail: { tags: ['Members'] } })
    .use(authentication)
    .get('', ({ actor }) => getProfile.execute(actor), {
      auth: true,
      response: { 200: ProfileSchema, ...problems(401) },
      detail: {
        operationId: 'getProfile',
        summary: 'The caller’s own profile',
        description: 'Every role: the member the access token names.',
      },
    })
    .put('', ({ actor, body }) => updateProfile.execute(actor, body), {
      auth: true,
      body: UpdateProfileBody,
      response: { 200: ProfileSchema, ...problems(400, 401, 413, 415) },
      detail: {
        operationId: 'updateProfile',
        summary: 'Update the caller’s own name and phone',
        description: 'Every role; `phone: null` clears the phone.',
      },
    })
    .use(rateLimits)
    .post('/email', ({ actor, body }) => changeEmail.execute(actor, body), {
      auth: true,
      rateLimit: 'auth',
      body: EmailChangeBody,
      response: rateLimited({ 200: EmailChangeSchema, ...problems(400, 401, 409, 413, 415) }),
      detail: {
        operationId: 'changeEmail',
        summary: 'Change the caller’s own email: a link mailed to the new address confirms it',
        description:
          'Every role. The link works once, for 24 hours; the old address is told of the change. The email changes when the link is followed (the `/confirm-email` page); a later request voids the earlier link. The address another member of the organization has is 409; the current one is 400 at /email. Sessions go on. Counted against the auth rate limit, as login is, and at most 5 asked within an hour (429 past it).',
      },
    })
    .post(
      '/password',
      async ({ actor, body, set }) => {
        await changePassword.execute(actor, body)
        set.status = 204
      },
      {
        auth: true,
        rateLimit: 'auth',
        body: ChangePasswordBody,
        response: rateLimited({ 204: t.Void(), ...problems(400, 401, 413, 415) }),
        detail: {
          operationId: 'changePassword',
          summary: 'Choose a new password, proving the current one; every session of the member ends',
          description:
            'Every role. A wrong current password is 400 at /currentPassword. Every session of the member ends, this one too: log in again with the new password. Counted against the auth rate limit, as login is.',
        },
      },
    )

  return new Elysia({ name: 'members-and-profile' }).use(members).use(profile)
}
