// docs/api/organization.md "SMS": why a text failed, in words a member can act on. Twilio's error codes
// (its status callback's `ErrorCode`); the ones seen most often for texts.
const TWILIO_ERRORS: Record<string, string> = {
  '21211': 'The number is not a valid phone number',
  '21408': 'The provider may not send texts to this country',
  '21610': 'The person has opted out of texts from this number (replied STOP)',
  '21612': 'The provider cannot send texts to this number',
  '21614': 'The number cannot receive texts (not a mobile number)',
  '30001': 'The provider had too many texts waiting and dropped this one',
  '30002': 'The provider account is suspended',
  '30003': 'The phone could not be reached (switched off or out of coverage)',
  '30004': 'The text was blocked (the person may have blocked this number)',
  '30005': 'The number is unknown or no longer in service',
  '30006': 'The number is a landline or its carrier cannot receive texts',
  '30007': "The person's carrier filtered the text as unwanted",
  '30008': 'The carrier could not deliver the text, for a reason it did not give',
  '30032': "The organization's toll-free number is not verified for texting",
  '30034': "The organization's number is not registered for texting (A2P 10DLC)",
}

/** A text the outbox gave up on: the provider refused it, or could not be reached at all its tries. */
export const UNSENT_TEXT = 'The provider refused the text or could not be reached, so it was never sent'

/** The words for a provider's error code; an unknown code is named, and no code at all is said plainly. */
export function deliveryErrorOf(code: string | undefined): string {
  const known = code ? TWILIO_ERRORS[code] : undefined
  if (known) return known
  return code ? `The provider could not deliver this text (code ${code})` : 'The provider could not deliver this text'
}
