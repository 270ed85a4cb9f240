import { GetPublishedDirectory } from '../../application/directory/get-published-directory'
import { AuditTrail } from '../../application/audit/audit-trail'
import { RecordImport } from '../../application/imports/record-import'
import { CreateService, UpdateService } from '../../application/services/change-services'
import { GetService, ListServices } from '../../application/services/read-services'
import { ImportTaxonomyTerms, SearchTaxonomyTerms } from '../../application/services/taxonomy-terms'
import { area } from './area'
import { PORTS } from './ports'

export const services = area('services', ({ service }) => ({
  list: service(ListServices, [PORTS.repositories]),
  get: service(GetService, [PORTS.repositories]),
  create: service(CreateService, [PORTS.unitOfWork, PORTS.clock, PORTS.ids, AuditTrail]),
  update: service(UpdateService, [PORTS.unitOfWork, PORTS.clock, AuditTrail]),
  importTerms: service(ImportTaxonomyTerms, [RecordImport, PORTS.ids]),
  searchTerms: service(SearchTaxonomyTerms, [PORTS.repositories]),
  publishedDirectory: service(GetPublishedDirectory, [PORTS.repositories]),
}))
