import { Elysia, t } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import type { AuthenticationPlugin } from './authentication'
import { IdParams, PagedList, problems, Uuid } from './common.schemas'
import { AttachMessageBody, ListMessagesQuery, MessageSchema, messageJson, ReplyBody, StartNeedBody } from './messages.schemas'
import { NeedSchema, needView } from './needs.schemas'
import { pagedResponse } from './paging'
import { tooManyRequests } from './rate-limits'

// docs/api/organization.md "Messages": the texts nobody has picked up, and what a member does with one.
export function messagesRoutes(useCases: UseCases['sms'], authentication: AuthenticationPlugin) {
  const { listUnattached, attach, startNeed, reply } = useCases
  return new Elysia({ name: 'messages', prefix: '/api/messages', detail: { tags: ['Messages'] } })
    .use(authentication)
    .get(
      '',
      ({ actor, query, request, set }) =>
        pagedResponse({ query, request, set }, (page) => listUnattached.execute(actor, page), messageJson),
      {
        auth: true,
        query: ListMessagesQuery,
        response: { 200: PagedList(MessageSchema), ...problems(400, 401, 403) },
        detail: {
          operationId: 'listMessages',
          summary: 'Texts on no need, newest first; paging (and the count) in X-Total-Count and Link',
          description: 'org_admin or sms_communicator. `from` only to those who may read phone numbers.',
        },
      },
    )
    .post(
      '/:id/attach',
      async ({ actor, params, body, set }) => {
        await attach.execute(actor, params.id, body.needId)
        set.status = 204
      },
      {
        auth: true,
        params: IdParams,
        body: AttachMessageBody,
        response: { 204: t.Void(), ...problems(400, 401, 403, 404, 413, 415) },
        detail: {
          operationId: 'attachMessage',
          summary: 'Put the text, and every other text on no need from its number, on a need',
          description: "org_admin or sms_communicator, on a need they see. The texts take the need's partner and person.",
        },
      },
    )
    .post(
      '/:id/need',
      async ({ actor, params, body, set }) => {
        set.status = 201
        return needView(await startNeed.execute(actor, params.id, body))
      },
      {
        auth: true,
        params: IdParams,
        body: StartNeedBody,
        response: { 201: NeedSchema, ...problems(400, 401, 403, 404, 413, 415) },
        detail: {
          operationId: 'startNeedFromMessage',
          summary: 'Start a need from the text, with every text on no need from its number on it',
          description:
            'Members who may send texts and create needs (partner roles for their own partner). The person is the one on file with the number, or one made from it. Answers the need as GET /api/needs/{id} does.',
        },
      },
    )
    .post(
      '/:id/reply',
      async ({ actor, params, body, set }) => {
        set.status = 202
        return reply.execute(actor, params.id, body.body)
      },
      {
        auth: true,
        params: IdParams,
        body: ReplyBody,
        response: { 202: t.Object({ interactionId: Uuid }), ...problems(400, 401, 403, 404, 413, 415), ...tooManyRequests() },
        detail: {
          operationId: 'replyToMessage',
          summary: 'Text back the number a text on no need came from; queued, sent by the outbox',
          description:
            'org_admin or sms_communicator. The limits and opt-outs of POST /api/needs/{id}/sms; the reply goes on the need the texts of that number are later put on.',
        },
      },
    )
}
