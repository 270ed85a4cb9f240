import type { FieldError } from '../errors'
import { MAIL_LANGUAGES, type MailLanguage } from '../members/notifications'
import { SMS_BODY } from '../messaging/sms'
import { FieldChecks, type ListRule, type TextRule } from '../shared/fields'

// docs/api/organization.md "Quick replies": the texts an organization's staff pick from instead of typing, each in
// English and Spanish. Kept with the organization and replaced whole.

export interface QuickReply {
  /** What staff pick it by; unique within the organization. */
  label: string
  /** The text in each language it is written in (one at least). */
  body: Partial<Record<MailLanguage, string>>
}

export const QUICK_REPLIES = { maxItems: 50 } as const satisfies ListRule
export const QUICK_REPLY_LABEL = { minLength: 1, maxLength: 60 } as const satisfies TextRule
/** A reply is a text: the bound of one staff text. */
export const QUICK_REPLY_BODY = SMS_BODY

/** Filled by the console as a text is written: the need's reference number and its partner's name. */
export const QUICK_REPLY_PLACEHOLDERS = ['{reference}', '{partner}'] as const

/** The problems of a list of replies, each at `/replies/<index>/…`. */
export function quickRepliesErrors(replies: readonly QuickReply[]): FieldError[] {
  const checks = new FieldChecks().list('/replies', replies, QUICK_REPLIES, () => undefined)
  if (checks.errors.length > 0 || !Array.isArray(replies)) return checks.errors
  const labels = new Set<string>()
  replies.forEach((reply, i) => {
    const at = `/replies/${i}`
    checks
      .text(`${at}/label`, reply?.label, QUICK_REPLY_LABEL, { trim: true })
      .check(`${at}/label`, reply?.label, 'required', (label) =>
        labels.has(String(label).trim()) ? 'must not repeat another reply’s label' : undefined,
      )
      .check(`${at}/body`, reply?.body, 'required', (body) =>
        MAIL_LANGUAGES.some((language) => (body as QuickReply['body'])[language] !== undefined)
          ? undefined
          : 'must have a text in English or Spanish',
      )
    labels.add(String(reply?.label).trim())
    for (const language of MAIL_LANGUAGES) {
      checks
        .text(`${at}/body/${language}`, reply?.body?.[language], QUICK_REPLY_BODY, { trim: true, presence: 'optional' })
        .check(`${at}/body/${language}`, reply?.body?.[language], 'optional', placeholderProblem)
    }
  })
  return checks.errors
}

/** A `{word}` that is not one of QUICK_REPLY_PLACEHOLDERS would reach the person as written. */
function placeholderProblem(text: unknown): string | undefined {
  const unknown = String(text)
    .match(/\{[^{}]*\}/g)
    ?.find((p) => !(QUICK_REPLY_PLACEHOLDERS as readonly string[]).includes(p))
  return unknown && `may hold only the placeholders ${QUICK_REPLY_PLACEHOLDERS.join(' and ')}, not ${unknown}`
}

/** The replies as kept: labels and texts trimmed. */
export function keptQuickReplies(replies: readonly QuickReply[]): QuickReply[] {
  return replies.map(({ label, body }) => ({
    label: label.trim(),
    body: Object.fromEntries(MAIL_LANGUAGES.filter((l) => body[l] !== undefined).map((l) => [l, body[l]!.trim()])),
  }))
}
