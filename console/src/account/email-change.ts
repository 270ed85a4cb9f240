import { client } from '../shared/api'
import { forgetCachedData } from '../shared/data'
import { t } from '../shared/i18n'
import { failure, type Outcome } from '../shared/outcome'
import { authorized } from '../shared/session'

/**
 * Asks for the member's own new email (docs/api/access.md "Changing an email"), answering the outcome in words: a
 * confirmation on its way to the new address, or (the first start's made-up address) the email changed already.
 */
export async function requestEmailChange(email: string): Promise<Outcome & { changed?: boolean }> {
  const { data, error, response } = await authorized(() => client.POST('/api/profile/email', { body: { email } }))
  if (!data) return failure(response.status, error)
  if (data.status === 'confirmation_sent') return { text: t.emailConfirmationSent(data.email), error: false }
  forgetCachedData()
  return { text: t.emailChanged(data.email), error: false, changed: true }
}
