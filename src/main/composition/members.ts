import { AuditTrail } from '../../application/audit/audit-trail'
import { ConfirmEmailChange, EmailChanges } from '../../application/members/email-changes'
import { InvitationMailer } from '../../application/members/invitation-mailer'
import { InviteMember } from '../../application/members/invite-member'
import { ListMembers } from '../../application/members/list-members'
import { ResendInvitation } from '../../application/members/resend-invitation'
import { UpdateMember } from '../../application/members/update-member'
import { Outbox } from '../../application/messaging/outbox'
import { RequestEmailChange } from '../../application/profile/change-email'
import { ChangePassword } from '../../application/profile/change-password'
import { GetProfile, UpdateProfile } from '../../application/profile/profile'
import { CreateSavedView, DeleteSavedView, ListSavedViews, UpdateSavedView } from '../../application/profile/saved-views'
import { area } from './area'
import { PORTS } from './ports'

const { repositories, unitOfWork, clock, ids } = PORTS

export const members = area('members', ({ service }) => {
  service(InvitationMailer, [Outbox, PORTS.secrets, clock, ids, PORTS.publicBaseUrl])
  service(EmailChanges, [Outbox, PORTS.secrets, clock, ids, PORTS.publicBaseUrl, AuditTrail])
  return {
    invite: service(InviteMember, [unitOfWork, InvitationMailer, clock, ids, AuditTrail]),
    update: service(UpdateMember, [unitOfWork, AuditTrail, clock, EmailChanges]),
    resend: service(ResendInvitation, [unitOfWork, InvitationMailer, AuditTrail]),
    list: service(ListMembers, [repositories]),
    getProfile: service(GetProfile, [repositories]),
    updateProfile: service(UpdateProfile, [unitOfWork, AuditTrail]),
    changePassword: service(ChangePassword, [unitOfWork, PORTS.passwords, clock, AuditTrail]),
    changeEmail: service(RequestEmailChange, [unitOfWork, EmailChanges, clock]),
    confirmEmail: service(ConfirmEmailChange, [unitOfWork, PORTS.secrets, clock, AuditTrail]),
    listViews: service(ListSavedViews, [repositories]),
    createView: service(CreateSavedView, [unitOfWork, clock, ids]),
    updateView: service(UpdateSavedView, [unitOfWork, clock]),
    deleteView: service(DeleteSavedView, [unitOfWork]),
  }
})
