import type { DeliveryStatus } from '../../../domain/messaging/sms'
import type { Tally } from '../../../domain/messaging/send-limits'
import type { Interaction } from '../../../domain/needs/interaction'
import type { Page, PageRequest } from '../../../domain/shared/page'
import type { TextCount } from '../../../domain/reports/text-figures'

/**
 * Whose messages a send limit counts: an organization's (its id), or every organization's, for the deployment's
 * cap on what one person is sent (`SendLimits.recipientMessagesPerHour`). Only a count crosses organizations.
 */
export type SendScope = string | typeof EVERY_ORGANIZATION
export const EVERY_ORGANIZATION = null

/** The need texts are put on, with what they take of it. */
export interface AttachedTo {
  needId: string
  partnerId: string
  constituentId?: string
}

export interface InteractionRepository {
  insert(interaction: Interaction): Promise<void>
  /** Oldest first (`createdAt`, `id` as tie-break), one page of them. */
  listByNeed(organizationId: string, needId: string, page: PageRequest): Promise<Page<Interaction>>
  findById(organizationId: string, id: string): Promise<Interaction | undefined>
  /** Across organizations: provider callbacks name only the provider's id. */
  findByProviderMessageId(providerMessageId: string): Promise<Interaction | undefined>
  /** Answers the need the text is on, if any (its events name it). `error`: why a failed text failed, in words. */
  setDelivery(
    organizationId: string,
    id: string,
    status: DeliveryStatus,
    providerMessageId: string | undefined,
    error?: string,
  ): Promise<{ needId?: string }>
  /** The inbound texts on no need, newest first (`createdAt`, then `id`), one page of them. */
  listUnattached(organizationId: string, page: PageRequest): Promise<Page<Interaction>>
  /**
   * Puts every text on no need from `phone` (inbound) or to it (a reply, `recipient`) on the need, with its
   * partner and person. Answers the ids of the texts moved, oldest first.
   */
  attachTextsOf(organizationId: string, phone: string, need: AttachedTo): Promise<string[]>
  /** The organization's outbound texts on no need to this number at or after `since` (a reply's send limits). */
  tallyRepliesTo(organizationId: string, phone: string, since: Date): Promise<Tally>
  /**
   * Keeps a status the provider reported before its send was recorded (the callback raced the answer);
   * forgets those older than a day, which no send will claim any more.
   */
  rememberEarlyStatus(providerMessageId: string, status: DeliveryStatus, at: Date): Promise<void>
  /** The status kept for this provider message, removed as it is taken. */
  takeEarlyStatus(providerMessageId: string): Promise<DeliveryStatus | undefined>
  /**
   * Blanks the sender (the person's number) of the inbound texts of a constituent, or on its needs, and the
   * number replies to them went to (`recipient`): an erasure (docs/privacy.md).
   */
  forgetInboundSenders(organizationId: string, constituentId: string, needIds: readonly string[]): Promise<void>
  /** Empties the content (notes, texts) of the interactions on these needs: retention (docs/privacy.md). */
  clearContentOfNeeds(organizationId: string, needIds: readonly string[]): Promise<void>
  /** The scope's outbound texts at or after `since` on needs of constituents with this phone (send limits). */
  tallyTextsTo(scope: SendScope, phone: string, since: Date): Promise<Tally>
  /**
   * The organization's texts recorded at or after `since` and before `until`, counted per direction and delivery
   * status (the needs report); `partnerId` narrows them to that partner's.
   */
  countTexts(organizationId: string, since: Date, until: Date, partnerId?: string): Promise<TextCount[]>
  /** The same of outbound emails, on needs of constituents with an address of this one's mailbox (`mailboxOf`). */
  tallyMailsTo(scope: SendScope, email: string, since: Date): Promise<Tally>
}
