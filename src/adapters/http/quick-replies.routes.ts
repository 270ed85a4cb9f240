import { Elysia, t } from 'elysia'
import type { UseCases } from '../../application/use-cases'
import { QUICK_REPLIES, QUICK_REPLY_BODY, QUICK_REPLY_LABEL, QUICK_REPLY_PLACEHOLDERS } from '../../domain/organizations/quick-replies'
import type { AuthenticationPlugin } from './authentication'
import { Body, List, Named, problems } from './common.schemas'

// docs/api/organization.md "Quick replies"
const PLACEHOLDERS = `${QUICK_REPLY_PLACEHOLDERS.join(' and ')}, filled by the console with the need's reference number and its partner's name`

const bodyIn = (language: string) =>
  t.Optional(t.String({ ...QUICK_REPLY_BODY, description: `The text in ${language}; may hold ${PLACEHOLDERS}` }))

const QuickReplySchema = Named(
  'QuickReply',
  Body({
    label: t.String({ ...QUICK_REPLY_LABEL, description: 'What staff pick the reply by; unique within the organization' }),
    body: Body({ en: bodyIn('English'), es: bodyIn('Spanish') }, 'The text in each language it is written in, one at least'),
  }),
)

const QuickRepliesSchema = Named(
  'QuickReplies',
  t.Object({ replies: List(QuickReplySchema, QUICK_REPLIES, { description: 'The saved replies, in the order staff see them' }) }),
)

const QuickRepliesBody = Named(
  'QuickRepliesUpdate',
  Body({
    replies: t.Array(QuickReplySchema, { maxItems: QUICK_REPLIES.maxItems, description: 'Every reply: the list kept is replaced whole' }),
  }),
)

export function quickRepliesRoutes(useCases: UseCases['organizations'], authentication: AuthenticationPlugin) {
  const { getQuickReplies, updateQuickReplies } = useCases
  return new Elysia({ name: 'quick-replies', prefix: '/api/organizations/quick-replies', detail: { tags: ['Organization'] } })
    .use(authentication)
    .get('', ({ actor }) => getQuickReplies.execute(actor), {
      auth: true,
      response: { 200: QuickRepliesSchema, ...problems(401, 403) },
      detail: {
        operationId: 'getQuickReplies',
        summary: "The organization's saved replies to texts, in English and Spanish",
        description: 'Whoever may send texts (org_admin, sms_communicator).',
      },
    })
    .put('', ({ actor, body }) => updateQuickReplies.execute(actor, body), {
      auth: true,
      body: QuickRepliesBody,
      response: { 200: QuickRepliesSchema, ...problems(400, 401, 403, 413, 415) },
      detail: {
        operationId: 'updateQuickReplies',
        summary: 'Replace the saved replies',
        description: `org_admin. At most ${QUICK_REPLIES.maxItems}, labels unique, each with an English or Spanish text (or both).`,
      },
    })
}
