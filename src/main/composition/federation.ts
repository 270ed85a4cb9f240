import { HttpFederationTransport } from '../../adapters/messaging/http-federation-transport'
import { OutboundHostPolicy } from '../../adapters/messaging/smtp-host-policy'
import { Ed25519FederationKeys } from '../../adapters/security/ed25519-federation-keys'
import { AuditTrail } from '../../application/audit/audit-trail'
import { FederationChannel } from '../../application/federation/federation-channel'
import { FederationHandlers } from '../../application/federation/federation-handlers'
import { FederationOutbox } from '../../application/federation/federation-outbox'
import { OrganizationKeys } from '../../application/federation/organization-keys'
import { AcceptPairing, CreatePairingInvitation, PairWithPartner } from '../../application/federation/pairing'
import { ReceiveFederationMessage } from '../../application/federation/receive-federation-message'
import { EndPairing, ListReferralPartners, PairingEndedHandler } from '../../application/federation/referral-partners'
import { Outbox } from '../../application/messaging/outbox'
import type { Clock } from '../../application/ports/clock'
import { PAIRING_ENDED } from '../../domain/federation/channel'
import { REFERRAL_CONSENT_REVOKED, REFERRAL_REQUESTED, REFERRAL_SERVICES, REFERRAL_STATUS } from '../../domain/referrals/messages'
import {
  ReferralConsentRevokedHandler,
  ReferralServicesHandler,
  ReferralStatusHandler,
} from '../../application/referrals/referral-handlers'
import { ReferralRequestedHandler } from '../../application/referrals/send-referral'
import { area } from './area'
import { PORTS } from './ports'

type ReferralHandlers = [ReferralRequestedHandler, ReferralStatusHandler, ReferralConsentRevokedHandler, ReferralServicesHandler]

const { repositories, unitOfWork, clock, ids, secrets, publicBaseUrl } = PORTS

/** Referral partners and the signed channel between instances (docs/referrals.md). */
export const federation = area('federation', ({ config, bind, service }) => {
  // A partner's address obeys the webhook destination rules.
  const hosts = new OutboundHostPolicy({ allowedHosts: config.webhookAllowedHosts, blockPrivate: config.webhookBlockPrivateHosts })
  bind(PORTS.federationTransport).toConstantValue(new HttpFederationTransport(hosts))
  bind(PORTS.federationKeys).toConstantValue(new Ed25519FederationKeys())
  service(OrganizationKeys, [PORTS.federationKeys, PORTS.secretBox, clock])
  // Each message type and its handler: a feature that sends messages registers its types here.
  bind(FederationHandlers).toResolvedValue(
    (time: Clock, audit: AuditTrail, ...referrals: ReferralHandlers) =>
      new FederationHandlers()
        .register(PAIRING_ENDED, new PairingEndedHandler(time, audit))
        .register(REFERRAL_REQUESTED, referrals[0])
        .register(REFERRAL_STATUS, referrals[1])
        .register(REFERRAL_CONSENT_REVOKED, referrals[2])
        .register(REFERRAL_SERVICES, referrals[3]),
    [clock, AuditTrail, ReferralRequestedHandler, ReferralStatusHandler, ReferralConsentRevokedHandler, ReferralServicesHandler],
  )
  const transport = PORTS.federationTransport
  service(FederationOutbox, [Outbox])
  service(FederationChannel, [repositories, OrganizationKeys, transport, clock, ids, FederationOutbox, FederationHandlers])
  return {
    createInvitation: service(CreatePairingInvitation, [unitOfWork, OrganizationKeys, secrets, clock, ids, publicBaseUrl]),
    pair: service(PairWithPartner, [unitOfWork, OrganizationKeys, transport, clock, ids, AuditTrail, publicBaseUrl]),
    acceptPairing: service(AcceptPairing, [unitOfWork, OrganizationKeys, transport, secrets, clock, ids, AuditTrail]),
    list: service(ListReferralPartners, [repositories]),
    end: service(EndPairing, [unitOfWork, FederationChannel, clock, AuditTrail]),
    receive: service(ReceiveFederationMessage, [repositories, unitOfWork, OrganizationKeys, FederationHandlers, clock]),
  }
})
