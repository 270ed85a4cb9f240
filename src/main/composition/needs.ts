import { AuditTrail } from '../../application/audit/audit-trail'
import { ConstituentRegistry } from '../../application/constituents/constituent-registry'
import { DuplicateDetection } from '../../application/constituents/duplicate-detection'
import { IdempotentCreates } from '../../application/idempotency/idempotent-creates'
import { Outbox } from '../../application/messaging/outbox'
import { AddNote } from '../../application/needs/add-note'
import { BulkUpdateNeeds } from '../../application/needs/bulk-update-needs'
import { CreateNeed } from '../../application/needs/create-need'
import { ExportNeeds } from '../../application/needs/export-needs'
import { ImportNeeds } from '../../application/needs/import-needs'
import { NeedImporter } from '../../application/needs/need-importer'
import { RecordImport } from '../../application/imports/record-import'
import { TextingStatus } from '../../application/sms/texting'
import { GetNeed } from '../../application/needs/get-need'
import { GetPublicIntakeForm } from '../../application/needs/get-public-intake-form'
import { ListNeedHistory } from '../../application/needs/list-need-history'
import { ListNeedInteractions } from '../../application/needs/list-need-interactions'
import { ListNeeds } from '../../application/needs/list-needs'
import { NeedIntake } from '../../application/needs/need-intake'
import { NeedNotifications } from '../../application/needs/need-notifications'
import { RequesterConfirmation } from '../../application/needs/requester-confirmation'
import { SubmitPublicNeed } from '../../application/needs/submit-public-need'
import { UpdateNeed } from '../../application/needs/update-need'
import { SendSms } from '../../application/sms/send-sms'
import { TextSending } from '../../application/sms/text-sending'
import { WebhookEvents } from '../../application/webhooks/webhook-events'
import { area } from './area'
import { PORTS } from './ports'

const { repositories, unitOfWork, clock, ids } = PORTS

export const needs = area('needs', ({ service }) => {
  service(NeedNotifications, [Outbox, PORTS.publicBaseUrl])
  service(NeedIntake, [ConstituentRegistry, clock, ids, WebhookEvents, AuditTrail, NeedNotifications])
  service(NeedImporter, [NeedIntake, clock])
  service(IdempotentCreates, [repositories, unitOfWork, clock, ids, PORTS.secrets])
  service(TextSending, [Outbox, clock, PORTS.senderNumberRequired, AuditTrail, PORTS.sendLimits])
  // Twilio is what both needs the organization's number and reaches people; the log provider does neither.
  service(RequesterConfirmation, [Outbox, clock, ids, PORTS.senderNumberRequired, PORTS.sendLimits])
  service(TextingStatus, [clock, PORTS.senderNumberRequired, PORTS.sendLimits])
  return {
    create: service(CreateNeed, [repositories, IdempotentCreates, NeedIntake, DuplicateDetection, AuditTrail, PORTS.metrics]),
    submitPublic: service(SubmitPublicNeed, [repositories, IdempotentCreates, NeedIntake, RequesterConfirmation, PORTS.metrics]),
    getPublicForm: service(GetPublicIntakeForm, [repositories]),
    list: service(ListNeeds, [repositories, clock]),
    export: service(ExportNeeds, [repositories, AuditTrail, clock]),
    import: service(ImportNeeds, [RecordImport, NeedImporter]),
    get: service(GetNeed, [repositories, TextingStatus, unitOfWork]),
    update: service(UpdateNeed, [unitOfWork, clock, ids, WebhookEvents, AuditTrail, NeedNotifications, PORTS.metrics]),
    bulkUpdate: service(BulkUpdateNeeds, [UpdateNeed]),
    addNote: service(AddNote, [repositories, IdempotentCreates, clock, WebhookEvents, AuditTrail]),
    listInteractions: service(ListNeedInteractions, [repositories]),
    listHistory: service(ListNeedHistory, [repositories]),
    sendSms: service(SendSms, [repositories, IdempotentCreates, TextSending]),
  }
})
