import { randomUUID } from 'node:crypto'
import { PORTS } from '../../../src/main/container'
import { aFile } from '../../support/builders'
import { TEST_PASSWORD } from '../../support/world'
import { VALID_SIGNATURE } from '../sms-world'
import { FEDERATION_SCENARIOS } from './audit-trail-federation-scenarios'
import { MESSAGE_SCENARIOS } from './audit-trail-message-scenarios'
import { adminEmail, aConstituent, aNeed, anInvitedMember, aWebhookEndpoint, byAdmin, type Expected } from './audit-trail-support'
import { slug, tokenMailedTo, u, world } from './audit-trail-support'

// Each audited use case of the record the edges are handed, with a scenario that runs it and the event it
// must leave: a new write use case gets its line here (or, when it writes nothing, in NOT_AUDITED of
// audit-trail.test.ts, with the reason), and audit-trail.test.ts runs every one.

const NEW_PASSWORD = 'another horse battery staple'

export const AUDITED: Record<string, () => Promise<Expected>> = {
  'auth.login': async () => {
    await u().auth.login.execute({ email: adminEmail, password: TEST_PASSWORD })
    return byAdmin('login', 'member', world.admin.memberId)
  },
  'auth.logout': async () => {
    const { refreshToken } = await u().auth.login.execute({ email: adminEmail, password: TEST_PASSWORD })
    await u().auth.logout.execute(world.admin, refreshToken)
    return byAdmin('logout', 'member', world.admin.memberId)
  },
  'auth.refresh': async () => {
    // A renewal is not recorded (the login that began the session is); a token presented again is.
    const login = await u().auth.login.execute({ email: adminEmail, password: TEST_PASSWORD })
    const renewed = await u().auth.refresh.execute(login.refreshToken)
    await u().auth.refresh.execute(renewed.refreshToken)
    // The first token again, after the one it was rotated to was used: a reuse.
    await u()
      .auth.refresh.execute(login.refreshToken)
      .catch(() => {})
    return { action: 'revoke_session', recordType: 'member', recordId: world.admin.memberId }
  },
  'auth.acceptInvite': async () => {
    const member = await anInvitedMember()
    await u().auth.acceptInvite.execute({ token: await tokenMailedTo(member.email), password: NEW_PASSWORD })
    return { memberId: member.id, action: 'accept_invite', recordType: 'member', recordId: member.id }
  },
  'auth.requestPasswordReset': async () => {
    await u().auth.requestPasswordReset.execute({ email: adminEmail })
    await world.container.get(PORTS.deferredWork).settled()
    return { action: 'request_password_reset', recordType: 'member', recordId: world.admin.memberId }
  },
  'auth.resetPassword': async () => {
    await u().auth.requestPasswordReset.execute({ email: adminEmail })
    await u().auth.resetPassword.execute({ token: await tokenMailedTo(adminEmail), password: TEST_PASSWORD })
    return byAdmin('reset_password', 'member', world.admin.memberId)
  },
  'constituents.search': async () => {
    const constituent = await aConstituent()
    await u().constituents.search.execute(world.admin, constituent.lastName, { page: 1, limit: 10 })
    return byAdmin('read', 'constituent', constituent.id)
  },
  'constituents.checkDuplicates': async () => {
    const email = `${randomUUID()}@example.org`
    const constituent = await aConstituent({ email })
    await u().constituents.checkDuplicates.execute(world.admin, { firstName: 'Other', email })
    return byAdmin('read', 'constituent', constituent.id)
  },
  'constituents.get': async () => {
    const constituent = await aConstituent()
    await u().constituents.get.execute(world.admin, constituent.id)
    return byAdmin('read', 'constituent', constituent.id)
  },
  'constituents.household': async () => {
    const constituent = await aConstituent()
    await u().constituents.household.execute(world.admin, constituent.id)
    return byAdmin('read', 'constituent', constituent.id)
  },
  'constituents.export': async () => {
    const constituent = await aConstituent()
    for await (const _batch of await u().constituents.export.execute(world.admin, constituent.lastName)) {
      // each batch is recorded before it is handed on
    }
    return byAdmin('read', 'constituent', constituent.id)
  },
  'needs.export': async () => {
    const need = await u().needs.create.execute(world.admin, {
      partnerId: world.defaultPartner.id,
      customFields: { firstName: 'Eva', lastName: `X${randomUUID().slice(0, 6)}`, phone: '+15035550177' },
    })
    for await (const _batch of await u().needs.export.execute(world.admin, {})) {
      // each batch is recorded before it is handed on
    }
    return byAdmin('read', 'need', need.id)
  },
  'constituents.create': async () => byAdmin('create', 'constituent', (await aConstituent()).id),
  'constituents.import': async () => {
    await u().constituents.import.execute(world.admin, aFile(`firstName,lastName\nAna,I${randomUUID().slice(0, 6)}\n`), { dryRun: false })
    return byAdmin('import', 'organization', world.organizationId)
  },
  'needs.import': async () => {
    await u().needs.import.execute(world.admin, aFile(`description,createdAt\n${randomUUID()},2025-01-02\n`), { dryRun: false })
    return byAdmin('import', 'organization', world.organizationId)
  },
  'constituents.update': async () => {
    const constituent = await aConstituent()
    await u().constituents.update.execute(world.admin, constituent.id, { phone: '+15035550199' })
    return byAdmin('update', 'constituent', constituent.id)
  },
  'constituents.merge': async () => {
    const [source, target] = [await aConstituent({ phone: '+15035550111' }), await aConstituent({ phone: '+15035550112' })]
    await u().constituents.merge.execute(world.admin, { sourceConstituentId: source.id, targetConstituentId: target.id })
    return byAdmin('merge', 'constituent', source.id)
  },
  'constituents.erase': async () => {
    const constituent = await aConstituent()
    await u().constituents.erase.execute(world.admin, constituent.id)
    return byAdmin('erase', 'constituent', constituent.id)
  },
  'constituents.listMatches': async () => {
    const phone = '+15035550133'
    await aConstituent({ phone })
    const second = await aConstituent({ phone })
    await u().constituents.listMatches.execute(world.admin, 'OPEN', { page: 1, limit: 100 })
    return byAdmin('read', 'constituent', second.id)
  },
  'constituents.resolve': async () => {
    const phone = '+15035550144'
    await aConstituent({ phone })
    const second = await aConstituent({ phone })
    const match = (await u().constituents.listMatches.execute(world.admin, 'OPEN', { page: 1, limit: 100 })).items.find(
      (m) => m.constituentId === second.id,
    )
    await u().constituents.resolve.execute(world.admin, match!.id, { action: 'DISMISS' })
    return byAdmin('resolve', 'household_match', match!.id)
  },
  'members.invite': async () => byAdmin('invite', 'member', (await anInvitedMember()).id),
  'members.update': async () => {
    const member = await anInvitedMember()
    await u().members.update.execute(world.admin, member.id, { role: 'org_admin' })
    return byAdmin('update', 'member', member.id)
  },
  'members.resend': async () => {
    const member = await anInvitedMember()
    await u().members.resend.execute(world.admin, member.id)
    return byAdmin('invite', 'member', member.id)
  },
  'members.updateProfile': async () => {
    await u().members.updateProfile.execute(world.admin, { fullName: `Admin ${randomUUID().slice(0, 4)}` })
    return byAdmin('update', 'member', world.admin.memberId)
  },
  'members.changePassword': async () => {
    // A member of its own: the admin's password is the one the other scenarios log in with.
    const member = await world.member('staff', { passwordHash: await world.container.get(PORTS.passwords).hash(TEST_PASSWORD) })
    await u().members.changePassword.execute(member, { currentPassword: TEST_PASSWORD, newPassword: 'a password of my own choosing' })
    return { memberId: member.memberId, action: 'change_password', recordType: 'member', recordId: member.memberId }
  },
  'members.changeEmail': async () => {
    const member = await world.member('staff')
    await u().members.changeEmail.execute(member, { email: `moved-${randomUUID().slice(0, 8)}@example.org` })
    return { memberId: member.memberId, action: 'request_email_change', recordType: 'member', recordId: member.memberId }
  },
  'members.confirmEmail': async () => {
    const member = await world.member('staff')
    const email = `moved-${randomUUID().slice(0, 8)}@example.org`
    await u().members.changeEmail.execute(member, { email })
    await u().members.confirmEmail.execute({ token: await tokenMailedTo(email) })
    return { memberId: member.memberId, action: 'change_email', recordType: 'member', recordId: member.memberId }
  },
  'needs.create': async () => byAdmin('create', 'need', (await aNeed()).id),
  'needs.submitPublic': async () => {
    const need = await u().needs.submitPublic.execute({ organizationId: world.organizationId, description: 'Food for a family of four' })
    return { action: 'create', recordType: 'need', recordId: need.id }
  },
  'needs.update': async () => {
    const need = await aNeed()
    await u().needs.update.execute(world.admin, need.id, { status: 'IN_PROGRESS' })
    return byAdmin('update', 'need', need.id)
  },
  'needs.bulkUpdate': async () => {
    const need = await aNeed()
    await u().needs.bulkUpdate.execute(world.admin, { ids: [need.id], set: { status: 'IN_PROGRESS' } })
    return byAdmin('update', 'need', need.id)
  },
  'needs.addNote': async () => {
    const need = await aNeed()
    await u().needs.addNote.execute(world.admin, need.id, 'Called back')
    return byAdmin('add_note', 'need', need.id)
  },
  'needs.sendSms': async () => {
    const need = await aNeed(world.admin, (await aConstituent({ phone: '+15035550155' })).id)
    await u().needs.sendSms.execute(world.admin, need.id, 'Your box is ready')
    return byAdmin('send_sms', 'need', need.id)
  },
  'organizations.updateSettings': async () => {
    await u().organizations.updateSettings.execute(world.admin, { auditRetentionDays: 400 })
    return byAdmin('update', 'organization', world.organizationId)
  },
  'organizations.updateQuickReplies': async () => {
    await u().organizations.updateQuickReplies.execute(world.admin, { replies: [{ label: 'Ready', body: { en: 'Your box is ready' } }] })
    return byAdmin('update', 'organization', world.organizationId)
  },
  'organizations.updateEmail': async () => {
    // Another organization: this one's mail must stay with the fallback, where the scenarios read their links.
    const other = await world.otherOrganization()
    await u().organizations.updateEmail.execute(other.admin, {
      provider: 'postmark',
      apiKey: 'pm-secret-key-1234',
      fromEmail: 'help@example.org',
    })
    return {
      organizationId: other.organizationId,
      memberId: other.admin.memberId,
      action: 'create',
      recordType: 'email_settings',
      recordId: other.organizationId,
    }
  },
  'partners.create': async () => {
    const partner = await u().partners.create.execute(world.admin, { name: 'Pantry', slaHours: 24 })
    return byAdmin('create', 'partner', partner.id)
  },
  'partners.update': async () => {
    const partner = await u().partners.create.execute(world.admin, { name: 'Shelter', slaHours: 24 })
    await u().partners.update.execute(world.admin, partner.id, { slaHours: 48 })
    return byAdmin('update', 'partner', partner.id)
  },
  'services.create': async () => {
    const service = await u().services.create.execute(world.admin, { partnerId: world.defaultPartner.id, name: 'Pantry' })
    return byAdmin('create', 'service', service.id)
  },
  'services.update': async () => {
    const service = await u().services.create.execute(world.admin, { partnerId: world.defaultPartner.id, name: 'Shelter' })
    await u().services.update.execute(world.admin, service.id, { acceptingReferrals: false })
    return byAdmin('update', 'service', service.id)
  },
  'services.importTerms': async () => {
    await u().services.importTerms.execute(world.admin, 'open-eligibility', aFile(`code,name\n${randomUUID()},Food\n`), { dryRun: false })
    return byAdmin('import', 'organization', world.organizationId)
  },
  'webhooks.create': async () => byAdmin('create', 'webhook_endpoint', (await aWebhookEndpoint()).id),
  'webhooks.update': async () => {
    const endpoint = await aWebhookEndpoint()
    await u().webhooks.update.execute(world.admin, endpoint.id, { events: ['note.added'] })
    return byAdmin('update', 'webhook_endpoint', endpoint.id)
  },
  'webhooks.delete': async () => {
    const endpoint = await aWebhookEndpoint()
    await u().webhooks.delete.execute(world.admin, endpoint.id)
    return byAdmin('delete', 'webhook_endpoint', endpoint.id)
  },
  'sms.receive': async () => {
    const number = `+1503${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`
    await u().operations.setOrganizationPhoneNumber.execute(slug, number)
    const sid = `SM${randomUUID()}`
    await u().sms.receive.execute({
      url: 'https://intake.example.org/api/webhooks/twilio/sms',
      params: { From: '+15035550166', To: number, Body: 'Hi', MessageSid: sid },
      signature: VALID_SIGNATURE,
    })
    const interaction = await world.repositories.interactions.findByProviderMessageId(sid)
    return { action: 'receive_sms', recordType: 'interaction', recordId: interaction!.id }
  },
  'sms.recordStatus': async () => {
    const need = await aNeed()
    const interaction = {
      id: randomUUID(),
      organizationId: world.organizationId,
      needId: need.id,
      channel: 'sms',
      direction: 'outbound',
      senderIdentifier: 'system',
      deliveryStatus: 'sent',
      providerMessageId: `SM${randomUUID()}`,
      createdAt: world.clock.now(),
    } as const
    await world.container.get(PORTS.unitOfWork).run((r) => r.interactions.insert(interaction))
    await u().sms.recordStatus.execute({
      url: 'https://intake.example.org/api/webhooks/twilio/status',
      params: { MessageSid: interaction.providerMessageId, MessageStatus: 'delivered' },
      signature: VALID_SIGNATURE,
    })
    return { action: 'sms_status', recordType: 'interaction', recordId: interaction.id }
  },
  'operations.createOrganization': async () => {
    const suffix = randomUUID().slice(0, 8)
    const created = await u().operations.createOrganization.execute({
      name: `Org ${suffix}`,
      slug: `org-${suffix}`,
      adminEmail: `a-${suffix}@example.org`,
      adminPassword: TEST_PASSWORD,
    })
    return { organizationId: created.organizationId, action: 'create', recordType: 'organization', recordId: created.organizationId }
  },
  'operations.setOrganizationPhoneNumber': async () => {
    await u().operations.setOrganizationPhoneNumber.execute(slug, `+1971${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`)
    return { action: 'update', recordType: 'organization', recordId: world.organizationId }
  },
  'operations.importFile': async () => {
    await u().operations.importFile.execute(slug, 'constituents', aFile(`firstName,lastName\nBo,I${randomUUID().slice(0, 6)}\n`), {
      dryRun: false,
    })
    return { action: 'import', recordType: 'organization', recordId: world.organizationId }
  },
  'operations.applyRetention': async () => {
    const suffix = randomUUID().slice(0, 8)
    const { organizationId } = await u().operations.createOrganization.execute({
      name: `Org ${suffix}`,
      slug: `org-${suffix}`,
      adminEmail: `a-${suffix}@example.org`,
      adminPassword: TEST_PASSWORD,
    })
    const organization = (await world.repositories.organizations.findById(organizationId))!
    await world.container.get(PORTS.unitOfWork).run((r) => r.organizations.update({ ...organization, needTextRetentionDays: 30 }))
    await u().operations.applyRetention.execute()
    return { organizationId, action: 'apply_retention', recordType: 'organization', recordId: organizationId }
  },
  'operations.setMemberPassword': async () => {
    await u().operations.setMemberPassword.execute({ email: adminEmail, password: TEST_PASSWORD })
    return { action: 'set_password', recordType: 'member', recordId: world.admin.memberId }
  },
  ...MESSAGE_SCENARIOS,
  ...FEDERATION_SCENARIOS,
}
