import { ForbiddenError } from '../../domain/errors'
import type { SmsWebhookVerifier } from '../ports/sms'

/** A call of the SMS provider's webhooks (docs/api/organization.md "SMS"): what it posted, and its signature of it. */
export interface ProviderWebhookCall {
  /** The public URL the provider posted to (PUBLIC_BASE_URL + path): what it signed. */
  url: string
  params: Record<string, string>
  signature: string | undefined
}

/** The parameters of a call the provider signed; any other call is refused (403) before anything of it is read. */
export function signedParams(verifier: SmsWebhookVerifier, request: ProviderWebhookCall): Record<string, string> {
  if (!verifier.isAuthentic(request.url, request.params, request.signature)) throw new ForbiddenError('Invalid webhook signature')
  return request.params
}
