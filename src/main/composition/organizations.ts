import { AuditTrail } from '../../application/audit/audit-trail'
import { OrganizationMailer } from '../../application/messaging/organization-mailer'
import { ListUnsentMessages } from '../../application/organizations/development-outbox'
import { GetEmailSettings, SendTestEmail, UpdateEmailSettings } from '../../application/organizations/email-settings'
import { GetOrganizationSettings, UpdateOrganizationSettings } from '../../application/organizations/organization-settings'
import { GetQuickReplies, UpdateQuickReplies } from '../../application/organizations/quick-replies'
import { area } from './area'
import { PORTS } from './ports'

const { repositories, unitOfWork } = PORTS

export const organizations = area('organizations', ({ service }) => ({
  getSettings: service(GetOrganizationSettings, [repositories]),
  updateSettings: service(UpdateOrganizationSettings, [unitOfWork, AuditTrail]),
  getEmail: service(GetEmailSettings, [repositories]),
  updateEmail: service(UpdateEmailSettings, [unitOfWork, PORTS.secretBox, PORTS.clock, PORTS.emailHosts, AuditTrail, repositories]),
  testEmail: service(SendTestEmail, [OrganizationMailer, PORTS.emailHosts, repositories, PORTS.secretBox]),
  getQuickReplies: service(GetQuickReplies, [repositories]),
  updateQuickReplies: service(UpdateQuickReplies, [unitOfWork, AuditTrail]),
  listOutbox: service(ListUnsentMessages, [repositories]),
}))
