// What the edges (HTTP routes, the CLI, the worker) are handed, by area: built once by the composition root,
// each area by its module (src/main/composition/<area>.ts, which must yield every use case listed here), so an
// edge receives the use cases it uses and never looks anything up.

import type { ListAuditEvents } from './audit/list-audit-events'
import type { ApplyRetention } from './retention/apply-retention'
import type { PurgeAuditEvents } from './audit/purge-audit-events'
import type { LiveStreams } from './live/live-streams'
import type { PurgeLiveEvents } from './live/purge-live-events'
import type { AcceptInvite } from './auth/accept-invite'
import type { ReadInvitation } from './auth/read-invitation'
import type { RequestPasswordReset, ResetPassword } from './auth/password-reset'
import type { Authenticate } from './auth/authenticate'
import type { Login } from './auth/login'
import type { Logout } from './auth/logout'
import type { RefreshSession } from './auth/refresh-session'
import type { GetConstituent } from './constituents/get-constituent'
import type { GetHousehold } from './constituents/get-household'
import type { CreateConstituent } from './constituents/create-constituent'
import type { CheckDuplicates } from './constituents/check-duplicates'
import type { ListConstituentNeeds } from './constituents/list-constituent-needs'
import type { ListHouseholdMatches } from './constituents/list-household-matches'
import type { MergeConstituents } from './constituents/merge-constituents'
import type { EraseConstituent } from './constituents/erase-constituent'
import type { ResolveHouseholdMatch } from './constituents/resolve-household-match'
import type { SearchConstituents } from './constituents/search-constituents'
import type { ExportConstituents } from './constituents/export-constituents'
import type { ImportConstituents } from './constituents/import-constituents'
import type { UpdateConstituent } from './constituents/update-constituent'
import type { ConfirmEmailChange } from './members/email-changes'
import type { InviteMember } from './members/invite-member'
import type { ListMembers } from './members/list-members'
import type { ResendInvitation } from './members/resend-invitation'
import type { SetMemberPassword } from './members/set-member-password'
import type { UpdateMember } from './members/update-member'
import type { DispatchOutbox } from './messaging/dispatch-outbox'
import type { AddNote } from './needs/add-note'
import type { BulkUpdateNeeds } from './needs/bulk-update-needs'
import type { CreateNeed } from './needs/create-need'
import type { GetNeed } from './needs/get-need'
import type { GetPublishedDirectory } from './directory/get-published-directory'
import type { GetPublicIntakeForm } from './needs/get-public-intake-form'
import type { ListNeedHistory } from './needs/list-need-history'
import type { ListNeedInteractions } from './needs/list-need-interactions'
import type { ListNeeds } from './needs/list-needs'
import type { GetNeedsReport } from './reports/get-needs-report'
import type { GetServedReport } from './reports/get-served-report'
import type { ExportNeeds } from './needs/export-needs'
import type { ImportNeeds } from './needs/import-needs'
import type { SendDailyDigests } from './needs/send-daily-digests'
import type { IndexNeedSearchBacklog } from './needs/index-need-search-backlog'
import type { SubmitPublicNeed } from './needs/submit-public-need'
import type { UpdateNeed } from './needs/update-need'
import type { ImportOrganizationFile } from './imports/import-organization-file'
import type { CreateOrganization } from './organizations/create-organization'
import type { ListUnsentMessages } from './organizations/development-outbox'
import type { GetEmailSettings, SendTestEmail, UpdateEmailSettings } from './organizations/email-settings'
import type { GetOrganizationSettings, UpdateOrganizationSettings } from './organizations/organization-settings'
import type { GetQuickReplies, UpdateQuickReplies } from './organizations/quick-replies'
import type { SetOrganizationPhoneNumber } from './organizations/set-organization-phone-number'
import type { CreatePartner } from './partners/create-partner'
import type { ListPartners } from './partners/list-partners'
import type { UpdatePartner } from './partners/update-partner'
import type { GetProfile, UpdateProfile } from './profile/profile'
import type { RequestEmailChange } from './profile/change-email'
import type { ChangePassword } from './profile/change-password'
import type { CreateSavedView, DeleteSavedView, ListSavedViews, UpdateSavedView } from './profile/saved-views'
import type { AttachMessage } from './sms/attach-message'
import type { ListUnattachedMessages } from './sms/messages'
import type { CreateService, UpdateService } from './services/change-services'
import type { GetService, ListServices } from './services/read-services'
import type { ImportTaxonomyTerms, SearchTaxonomyTerms } from './services/taxonomy-terms'
import type { ReceiveSms } from './sms/receive-sms'
import type { ReplyToMessage } from './sms/reply-to-message'
import type { StartNeedFromMessage } from './sms/start-need-from-message'
import type { RecordSmsStatus } from './sms/record-sms-status'
import type { SendSms } from './sms/send-sms'
import type { ListWebhookDeliveries } from './webhooks/list-webhook-deliveries'
import type { AcceptPairing, CreatePairingInvitation, PairWithPartner } from './federation/pairing'
import type { ReceiveFederationMessage } from './federation/receive-federation-message'
import type { EndPairing, ListReferralPartners } from './federation/referral-partners'
import type { MoveReferral, RevokeReferralConsent, SendReferralAgain } from './referrals/move-referral'
import type { GetReferral, ListPartnerServices, ListReferrals } from './referrals/read-referrals'
import type { SendReferral } from './referrals/send-referral'
import type {
  CreateWebhookEndpoint,
  DeleteWebhookEndpoint,
  GetWebhookEndpoint,
  ListWebhookEndpoints,
  UpdateWebhookEndpoint,
} from './webhooks/webhook-endpoints'

export interface UseCases {
  auth: {
    authenticate: Authenticate
    login: Login
    refresh: RefreshSession
    logout: Logout
    acceptInvite: AcceptInvite
    readInvitation: ReadInvitation
    requestPasswordReset: RequestPasswordReset
    resetPassword: ResetPassword
  }
  constituents: {
    search: SearchConstituents
    checkDuplicates: CheckDuplicates
    export: ExportConstituents
    import: ImportConstituents
    get: GetConstituent
    create: CreateConstituent
    update: UpdateConstituent
    listNeeds: ListConstituentNeeds
    household: GetHousehold
    merge: MergeConstituents
    erase: EraseConstituent
    listMatches: ListHouseholdMatches
    resolve: ResolveHouseholdMatch
  }
  members: {
    invite: InviteMember
    update: UpdateMember
    resend: ResendInvitation
    list: ListMembers
    getProfile: GetProfile
    updateProfile: UpdateProfile
    changePassword: ChangePassword
    changeEmail: RequestEmailChange
    confirmEmail: ConfirmEmailChange
    listViews: ListSavedViews
    createView: CreateSavedView
    updateView: UpdateSavedView
    deleteView: DeleteSavedView
  }
  needs: {
    create: CreateNeed
    submitPublic: SubmitPublicNeed
    getPublicForm: GetPublicIntakeForm
    list: ListNeeds
    export: ExportNeeds
    import: ImportNeeds
    get: GetNeed
    update: UpdateNeed
    bulkUpdate: BulkUpdateNeeds
    addNote: AddNote
    listInteractions: ListNeedInteractions
    listHistory: ListNeedHistory
    sendSms: SendSms
  }
  organizations: {
    getSettings: GetOrganizationSettings
    updateSettings: UpdateOrganizationSettings
    getEmail: GetEmailSettings
    updateEmail: UpdateEmailSettings
    testEmail: SendTestEmail
    getQuickReplies: GetQuickReplies
    updateQuickReplies: UpdateQuickReplies
    listOutbox: ListUnsentMessages
  }
  audit: {
    list: ListAuditEvents
  }
  reports: {
    needs: GetNeedsReport
    served: GetServedReport
  }
  partners: {
    list: ListPartners
    create: CreatePartner
    update: UpdatePartner
  }
  services: {
    list: ListServices
    get: GetService
    create: CreateService
    update: UpdateService
    importTerms: ImportTaxonomyTerms
    searchTerms: SearchTaxonomyTerms
    /** The directory an organization publishes as HSDS (docs/directory.md), anonymous. */
    publishedDirectory: GetPublishedDirectory
  }
  sms: {
    receive: ReceiveSms
    recordStatus: RecordSmsStatus
    listUnattached: ListUnattachedMessages
    attach: AttachMessage
    startNeed: StartNeedFromMessage
    reply: ReplyToMessage
  }
  webhooks: {
    create: CreateWebhookEndpoint
    list: ListWebhookEndpoints
    get: GetWebhookEndpoint
    update: UpdateWebhookEndpoint
    delete: DeleteWebhookEndpoint
    listDeliveries: ListWebhookDeliveries
    /** The live stream's open streams (`GET /api/stream`). */
    stream: LiveStreams
  }
  /** Referral partners and the signed channel between instances (docs/referrals.md). */
  federation: {
    createInvitation: CreatePairingInvitation
    pair: PairWithPartner
    acceptPairing: AcceptPairing
    list: ListReferralPartners
    end: EndPairing
    receive: ReceiveFederationMessage
  }
  referrals: {
    send: SendReferral
    list: ListReferrals
    get: GetReferral
    move: MoveReferral
    revokeConsent: RevokeReferralConsent
    sendAgain: SendReferralAgain
    partnerServices: ListPartnerServices
  }
  /** What operators run from the command line, and the outbox worker. */
  operations: {
    createOrganization: CreateOrganization
    setOrganizationPhoneNumber: SetOrganizationPhoneNumber
    setMemberPassword: SetMemberPassword
    dispatchOutbox: DispatchOutbox
    purgeAuditEvents: PurgeAuditEvents
    importFile: ImportOrganizationFile
    applyRetention: ApplyRetention
    sendDailyDigests: SendDailyDigests
    purgeLiveEvents: PurgeLiveEvents
    indexNeedSearchBacklog: IndexNeedSearchBacklog
  }
}
