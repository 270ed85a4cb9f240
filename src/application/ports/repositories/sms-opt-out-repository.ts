/** Numbers that stopped an organization's texts, and the automatic answers to HELP they were sent (docs/api/organization.md "SMS"). */
export interface SmsOptOutRepository {
  /** When the number opted out of the organization's texts, while it has not opted back in; undefined when it may be texted. */
  optedOutAt(organizationId: string, phone: string): Promise<Date | undefined>
  /** Keeps the first opt-out's date: STOP sent again does not move it. */
  optOut(organizationId: string, phone: string, at: Date): Promise<void>
  optIn(organizationId: string, phone: string): Promise<void>
  /**
   * Takes the number's turn for an automatic answer to HELP at `at`, when it was answered none since `since`: true
   * when taken, false when another answer (on any instance) was. One atomic write, so two webhooks at once take it once.
   */
  claimHelpAnswer(organizationId: string, phone: string, at: Date, since: Date): Promise<boolean>
}
