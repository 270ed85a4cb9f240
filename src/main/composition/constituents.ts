import { AuditTrail } from '../../application/audit/audit-trail'
import { ConstituentEraser } from '../../application/constituents/constituent-eraser'
import { EraseConstituent } from '../../application/constituents/erase-constituent'
import { CheckDuplicates } from '../../application/constituents/check-duplicates'
import { ConstituentMerger } from '../../application/constituents/constituent-merger'
import { ConstituentRegistry } from '../../application/constituents/constituent-registry'
import { CreateConstituent } from '../../application/constituents/create-constituent'
import { DuplicateDetection } from '../../application/constituents/duplicate-detection'
import { ExportConstituents } from '../../application/constituents/export-constituents'
import { ConstituentImporter } from '../../application/constituents/constituent-importer'
import { ImportConstituents } from '../../application/constituents/import-constituents'
import { RecordImport } from '../../application/imports/record-import'
import { GetConstituent } from '../../application/constituents/get-constituent'
import { GetHousehold } from '../../application/constituents/get-household'
import { ListConstituentNeeds } from '../../application/constituents/list-constituent-needs'
import { ListHouseholdMatches } from '../../application/constituents/list-household-matches'
import { MergeConstituents } from '../../application/constituents/merge-constituents'
import { ResolveHouseholdMatch } from '../../application/constituents/resolve-household-match'
import { SearchConstituents } from '../../application/constituents/search-constituents'
import { UpdateConstituent } from '../../application/constituents/update-constituent'
import { WebhookEvents } from '../../application/webhooks/webhook-events'
import { area } from './area'
import { PORTS } from './ports'

const { repositories, unitOfWork, clock, ids } = PORTS

export const constituents = area('constituents', ({ service }) => {
  service(DuplicateDetection, [clock, ids])
  service(ConstituentRegistry, [DuplicateDetection, clock, ids, WebhookEvents])
  service(ConstituentMerger, [clock, DuplicateDetection, WebhookEvents, AuditTrail])
  // Shared by both imports and the operator's command.
  service(RecordImport, [unitOfWork, repositories, AuditTrail])
  service(ConstituentImporter, [ConstituentRegistry, AuditTrail])
  service(ConstituentEraser, [clock, WebhookEvents, AuditTrail])
  return {
    search: service(SearchConstituents, [repositories, AuditTrail]),
    checkDuplicates: service(CheckDuplicates, [repositories, DuplicateDetection, AuditTrail]),
    export: service(ExportConstituents, [repositories, AuditTrail]),
    import: service(ImportConstituents, [RecordImport, ConstituentImporter]),
    get: service(GetConstituent, [repositories, AuditTrail]),
    create: service(CreateConstituent, [unitOfWork, ConstituentRegistry, DuplicateDetection, AuditTrail]),
    update: service(UpdateConstituent, [unitOfWork, DuplicateDetection, clock, AuditTrail]),
    listNeeds: service(ListConstituentNeeds, [repositories]),
    household: service(GetHousehold, [repositories, AuditTrail]),
    merge: service(MergeConstituents, [unitOfWork, ConstituentMerger]),
    erase: service(EraseConstituent, [unitOfWork, ConstituentEraser]),
    listMatches: service(ListHouseholdMatches, [repositories, AuditTrail]),
    resolve: service(ResolveHouseholdMatch, [unitOfWork, ConstituentMerger, clock, WebhookEvents, AuditTrail]),
  }
})
