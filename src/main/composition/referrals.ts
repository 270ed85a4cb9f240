import { AuditTrail } from '../../application/audit/audit-trail'
import { FederationChannel } from '../../application/federation/federation-channel'
import { FederationOutbox } from '../../application/federation/federation-outbox'
import { NeedIntake } from '../../application/needs/need-intake'
import { MoveReferral, RevokeReferralConsent, SendReferralAgain } from '../../application/referrals/move-referral'
import { GetReferral, ListPartnerServices, ListReferrals } from '../../application/referrals/read-referrals'
import {
  ReferralConsentRevokedHandler,
  ReferralServicesHandler,
  ReferralStatusHandler,
} from '../../application/referrals/referral-handlers'
import { ReferralJournal } from '../../application/referrals/referral-journal'
import { ReferralMessages, ReferralRequestedHandler, SendReferral } from '../../application/referrals/send-referral'
import { WebhookEvents } from '../../application/webhooks/webhook-events'
import { area } from './area'
import { PORTS } from './ports'

const { repositories, unitOfWork, clock, ids } = PORTS

/** Referrals between paired organizations (docs/referrals.md "Referrals"); their message types are registered in `federation`. */
export const referrals = area('referrals', ({ service }) => {
  service(ReferralJournal, [FederationOutbox, WebhookEvents, AuditTrail])
  service(ReferralMessages, [FederationOutbox, clock])
  service(ReferralRequestedHandler, [NeedIntake, ReferralJournal, clock, WebhookEvents, AuditTrail])
  service(ReferralStatusHandler, [ReferralJournal])
  service(ReferralConsentRevokedHandler, [clock, AuditTrail])
  service(ReferralServicesHandler, [])
  return {
    send: service(SendReferral, [unitOfWork, ReferralMessages, clock, ids, AuditTrail]),
    list: service(ListReferrals, [repositories]),
    get: service(GetReferral, [repositories]),
    move: service(MoveReferral, [unitOfWork, ReferralJournal, clock]),
    revokeConsent: service(RevokeReferralConsent, [unitOfWork, FederationOutbox, clock, AuditTrail]),
    sendAgain: service(SendReferralAgain, [unitOfWork, ReferralMessages, ReferralJournal, FederationOutbox]),
    partnerServices: service(ListPartnerServices, [FederationChannel]),
  }
})
