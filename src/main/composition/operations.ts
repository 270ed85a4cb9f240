import { PurgeAuditEvents } from '../../application/audit/purge-audit-events'
import { PurgeLiveEvents } from '../../application/live/purge-live-events'
import { ConstituentImporter } from '../../application/constituents/constituent-importer'
import { ImportOrganizationFile } from '../../application/imports/import-organization-file'
import { RecordImport } from '../../application/imports/record-import'
import { NeedImporter } from '../../application/needs/need-importer'
import { AuditTrail } from '../../application/audit/audit-trail'
import { ConstituentEraser } from '../../application/constituents/constituent-eraser'
import { ApplyRetention } from '../../application/retention/apply-retention'
import { SetMemberPassword } from '../../application/members/set-member-password'
import { DispatchOutbox } from '../../application/messaging/dispatch-outbox'
import { OrganizationMailer } from '../../application/messaging/organization-mailer'
import { Outbox } from '../../application/messaging/outbox'
import { IndexNeedSearchBacklog } from '../../application/needs/index-need-search-backlog'
import { SendDailyDigests } from '../../application/needs/send-daily-digests'
import { CreateOrganization } from '../../application/organizations/create-organization'
import { SetOrganizationPhoneNumber } from '../../application/organizations/set-organization-phone-number'
import { WebhookDelivery } from '../../application/webhooks/webhook-delivery'
import { WebhookEvents } from '../../application/webhooks/webhook-events'
import { FederationChannel } from '../../application/federation/federation-channel'
import { area } from './area'
import { PORTS } from './ports'

const { unitOfWork, passwords, clock } = PORTS

/** What operators run from the command line, and the worker's jobs. */
export const operations = area('operations', ({ service }) => ({
  createOrganization: service(CreateOrganization, [unitOfWork, passwords, clock, PORTS.ids, AuditTrail]),
  setOrganizationPhoneNumber: service(SetOrganizationPhoneNumber, [unitOfWork, AuditTrail]),
  setMemberPassword: service(SetMemberPassword, [unitOfWork, passwords, AuditTrail]),
  dispatchOutbox: service(DispatchOutbox, [
    unitOfWork,
    OrganizationMailer,
    PORTS.sms,
    clock,
    PORTS.logger,
    PORTS.dispatchOptions,
    PORTS.metrics,
    WebhookDelivery,
    WebhookEvents,
    FederationChannel,
  ]),
  purgeAuditEvents: service(PurgeAuditEvents, [PORTS.repositories, unitOfWork, clock]),
  importFile: service(ImportOrganizationFile, [PORTS.repositories, RecordImport, ConstituentImporter, NeedImporter]),
  applyRetention: service(ApplyRetention, [PORTS.repositories, unitOfWork, clock, ConstituentEraser, AuditTrail]),
  purgeLiveEvents: service(PurgeLiveEvents, [unitOfWork, clock]),
  sendDailyDigests: service(SendDailyDigests, [PORTS.repositories, unitOfWork, Outbox, clock, PORTS.publicBaseUrl]),
  indexNeedSearchBacklog: service(IndexNeedSearchBacklog, [unitOfWork]),
}))
