// Generated from the served OpenAPI document (scripts/api-constants.ts): do not edit. Regenerate with
//   UPDATE_OPENAPI_TYPES=1 bun test tests/adapters/http/console-schema.test.ts
// Each request body schema of the API, by its component name: what a form sends keeps these.

/** Each string field's maxLength (an array's items' for a list). */
export const MAX_LENGTH = {
  AttachMessage: {"needId":36},
  BulkNeedUpdate: {"ids":64},
  ConstituentMerge: {"sourceConstituentId":36,"targetConstituentId":36},
  ConstituentUpdate: {"firstName":200,"lastName":200,"phone":32,"email":254,"dateOfBirth":10,"addressStreet":200,"addressCity":200,"addressState":2,"addressZip":5},
  DuplicateCheckDetails: {"firstName":200,"lastName":200,"phone":32,"email":254,"dateOfBirth":10,"addressStreet":200,"addressCity":200,"addressState":2,"addressZip":5},
  EmailChangeRequest: {"email":254},
  EmailSettingsUpdate: {"apiKey":2000,"fromEmail":254,"fromName":200},
  HouseholdMatchResolution: {"targetConstituentId":36},
  InvitationAcceptance: {"token":512,"password":1024},
  InvitationResend: {"appUrl":2000},
  MemberUpdate: {"fullName":200,"email":254,"partnerId":36,"phone":32},
  MessageReply: {"body":1600},
  NeedUpdate: {"assignedTo":36,"partnerId":36,"dueDate":27},
  NewConstituent: {"firstName":200,"lastName":200,"phone":32,"email":254,"dateOfBirth":10,"addressStreet":200,"addressCity":200,"addressState":2,"addressZip":5,"householdId":36},
  NewMember: {"email":254,"fullName":200,"partnerId":36,"phone":32,"appUrl":2000},
  NewNeed: {"partnerId":36,"parentNeedId":36,"assignedTo":36,"constituentId":36,"householdId":36,"dueDate":27},
  NewNote: {"content":5000},
  NewPartner: {"name":200,"description":5000,"keywords":100,"website":2000,"publicCategoryName":200},
  NewPublicNeed: {"organizationId":36,"organizationSlug":63,"description":5000,"partnerId":36,"parentNeedId":36,"constituentId":36,"householdId":36},
  NewSavedView: {"name":60},
  NewService: {"partnerId":36,"name":200,"description":5000,"eligibility":5000,"languages":35,"fees":5000,"applicationProcess":5000,"url":2000,"email":254,"phone":32},
  NewSms: {"body":1600},
  NewWebhookEndpoint: {"url":2000},
  OrganizationSettingsUpdate: {"name":200,"slug":63,"shortCode":6,"tcrStatus":64,"description":5000,"appOrigins":300,"formOrigins":300,"timeZone":64,"digestTimeZone":64,"defaultCountry":2},
  PartnerUpdate: {"name":200,"description":5000,"keywords":100,"website":2000,"publicCategoryName":200},
  PasswordChange: {"currentPassword":1024,"newPassword":1024},
  ProfileUpdate: {"fullName":200,"phone":32},
  RefreshRequest: {"refreshToken":512},
  SavedViewUpdate: {"name":60},
  ServiceUpdate: {"partnerId":36,"name":200,"description":5000,"eligibility":5000,"languages":35,"fees":5000,"applicationProcess":5000,"url":2000,"email":254,"phone":32},
  StartNeedFromMessage: {"partnerId":36,"description":5000},
  WebhookEndpointUpdate: {"url":2000},
} as const

/** Each field's values, in the document's order (an array's items' for a list). */
export const VALUES = {
  EmailSettingsUpdate: {"provider":["smtp","postmark","ses","sendgrid"]},
  HouseholdMatchResolution: {"action":["MERGE_CONSTITUENT","MERGE_HOUSEHOLD","DISMISS"]},
  MemberUpdate: {"role":["org_admin","partner_admin","partner_agent","staff","volunteer"],"profiles":["needs_processor","intake_staff","sms_communicator","email_phone_communicator","pii_reader","duplicate_resolver"]},
  NeedUpdate: {"status":["NEW","IN_PROGRESS","PENDING_INTERNAL","PENDING_CLIENT","RESOLVED","ESCALATED"]},
  NewMember: {"role":["org_admin","partner_admin","partner_agent","staff","volunteer"],"profiles":["needs_processor","intake_staff","sms_communicator","email_phone_communicator","pii_reader","duplicate_resolver"],"language":["en","es"]},
  NewNeed: {"status":["NEW","IN_PROGRESS","PENDING_INTERNAL","PENDING_CLIENT","RESOLVED","ESCALATED"]},
  NewPublicNeed: {"language":["en","es"]},
  NewService: {"status":["active","inactive","defunct","temporarily closed"]},
  NewWebhookEndpoint: {"events":["need.created","need.updated","note.added","constituent.created","constituent.merged","constituent.erased","household_match.resolved","sms.received","sms.status","message.attached","referral.received","referral.status_changed"]},
  ProfileUpdate: {"language":["en","es"]},
  ServiceUpdate: {"status":["active","inactive","defunct","temporarily closed"]},
  WebhookEndpointUpdate: {"events":["need.created","need.updated","note.added","constituent.created","constituent.merged","constituent.erased","household_match.resolved","sms.received","sms.status","message.attached","referral.received","referral.status_changed"]},
} as const

/** Each schema's fields, in the document's order. */
export const FIELDS = {
  AttachMessage: ["needId"],
  BulkNeedUpdate: ["ids","set"],
  ConstituentMerge: ["sourceConstituentId","targetConstituentId","mergeHouseholds","fieldOverrides"],
  ConstituentUpdate: ["firstName","lastName","phone","email","dateOfBirth","addressStreet","addressCity","addressState","addressZip"],
  DuplicateCheckDetails: ["firstName","lastName","phone","email","dateOfBirth","addressStreet","addressCity","addressState","addressZip"],
  EmailChangeRequest: ["email"],
  EmailSettingsUpdate: ["provider","apiKey","fromEmail","fromName"],
  HouseholdMatchResolution: ["action","targetConstituentId","fieldOverrides"],
  InvitationAcceptance: ["token","password"],
  InvitationResend: ["appUrl"],
  MemberUpdate: ["fullName","email","role","partnerId","phone","profiles","active"],
  MessageReply: ["body"],
  NeedUpdate: ["status","assignedTo","partnerId","customFields","isConfidential","dueDate"],
  NewConstituent: ["firstName","lastName","phone","email","dateOfBirth","addressStreet","addressCity","addressState","addressZip","householdId"],
  NewMember: ["email","role","fullName","partnerId","phone","appUrl","profiles","language"],
  NewNeed: ["partnerId","status","customFields","isConfidential","parentNeedId","assignedTo","constituentId","householdId","dueDate"],
  NewNote: ["content"],
  NewPartner: ["name","slaHours","description","keywords","website","publicCategoryName","isDefault"],
  NewPublicNeed: ["organizationId","organizationSlug","description","partnerId","customFields","isConfidential","parentNeedId","constituentId","householdId","language"],
  NewSavedView: ["name","filters"],
  NewService: ["partnerId","name","description","status","eligibility","languages","schedule","fees","applicationProcess","url","email","phone","address","acceptingReferrals","taxonomyTerms"],
  NewSms: ["body"],
  NewWebhookEndpoint: ["url","events","enabled"],
  OrganizationSettingsUpdate: ["name","slug","shortCode","maxConcurrency","tcrStatus","description","constituentRetentionDays","needTextRetentionDays","auditRetentionDays","appOrigins","formOrigins","digestHour","timeZone","digestTimeZone","defaultCountry","confirmRequests","publishDirectory"],
  PartnerUpdate: ["name","slaHours","isArchived","description","keywords","website","publicCategoryName","isDefault"],
  PasswordChange: ["currentPassword","newPassword"],
  ProfileUpdate: ["fullName","phone","language","notifications"],
  QuickRepliesUpdate: ["replies"],
  RefreshRequest: ["refreshToken"],
  SavedViewUpdate: ["name","filters"],
  ServiceUpdate: ["partnerId","name","isArchived","description","status","eligibility","languages","schedule","fees","applicationProcess","url","email","phone","address","acceptingReferrals","taxonomyTerms"],
  StartNeedFromMessage: ["partnerId","description"],
  WebhookEndpointUpdate: ["url","events","enabled"],
} as const

/** What a field looks like, by another field's value (its `x-shapes`: an email key's, by provider). */
export const SHAPES = {
  EmailSettingsUpdate: {"apiKey":{"smtp":"smtp://user:password@host:587","ses":"ACCESS_KEY_ID:SECRET_ACCESS_KEY:REGION"}},
} as const

/** What a role lets a member do by itself, and what a profile adds to any role (the schema's `x-permissions`). */
export const GRANTS = {
  NewMember: {"roles":{"org_admin":["needs:read","needs:add-note","partners:list","profile:read","profile:update","needs:create","needs:update","needs:send-sms","constituents:read-pii","constituents:read-contact","needs:read-confidential","constituents:read","constituents:update","constituents:merge","constituents:erase","household-matches:list","household-matches:resolve","partners:create","partners:update","services:list","services:manage","taxonomy:import","members:list","members:manage","organization:settings","webhooks:manage","referral-partners:manage","referrals:send","referrals:respond","referrals:read","audit:read","reports:read","records:export","records:import"],"partner_admin":["needs:read","needs:add-note","partners:list","profile:read","profile:update","needs:create","needs:update","constituents:read-pii","constituents:read-contact","needs:read-confidential","constituents:read","constituents:update","partners:update","services:list","services:manage","members:list","members:manage","referrals:send","referrals:respond","referrals:read","reports:read"],"partner_agent":["needs:read","needs:add-note","partners:list","profile:read","profile:update","needs:create","needs:update","constituents:read","constituents:update","services:list","referrals:send","referrals:respond","referrals:read","reports:read"],"staff":["needs:read","needs:add-note","partners:list","profile:read","profile:update","needs:create","needs:update","constituents:read","constituents:update","services:list","members:list","referrals:send","referrals:respond","referrals:read","reports:read"],"volunteer":["needs:read","needs:add-note","partners:list","profile:read","profile:update","services:list","referrals:read"]},"profiles":{"needs_processor":["needs:update","referrals:send","referrals:respond"],"intake_staff":["needs:create","constituents:read","constituents:update"],"sms_communicator":["needs:send-sms"],"email_phone_communicator":["constituents:read-contact"],"pii_reader":["constituents:read-pii","constituents:read-contact","needs:read-confidential","records:export"],"duplicate_resolver":["constituents:merge","household-matches:list","household-matches:resolve"]}},
} as const

/** Each import's columns, in order, with the common names a header may give them (the report's `x-import-columns`). */
export const IMPORT_COLUMNS = {
  constituents: {"firstName":["First Name","First","Given Name","Forename","Nombre"],"lastName":["Last Name","Last","Surname","Family Name","Apellido","Apellidos"],"phone":["Phone Number","Telephone","Tel","Mobile","Mobile Number","Mobile Phone","Cell","Cell Phone","Teléfono","Celular"],"email":["E-mail","Email Address","E-mail Address","Mail","Correo","Correo Electrónico"],"dateOfBirth":["Date of Birth","DOB","Birth Date","Birthdate","Birthday","Fecha de Nacimiento"],"addressStreet":["Street","Street Address","Address","Address Line 1","Address 1","Dirección"],"addressCity":["City","Town","Ciudad"],"addressState":["State","Province","Region","Estado"],"addressZip":["Zip","Zip Code","ZIP+4","Postal Code","Postcode","Código Postal"]},
  needs: {"partnerId":["Partner ID"],"partnerName":["Partner","Agency"],"status":[],"description":["Request","Need","Details"],"isConfidential":["Confidential"],"customFields":[],"customFields.description":[],"customFields.firstName":[],"customFields.lastName":[],"customFields.phone":[],"customFields.email":[],"customFields.dateOfBirth":[],"customFields.addressStreet":[],"customFields.addressCity":[],"customFields.addressState":[],"customFields.addressZip":[],"createdAt":["Created","Created On","Date","Date Requested","Request Date","Fecha"],"resolvedAt":[]},
} as const

/** The most one page of a list holds (its `limit`): docs/api/conventions.md "Lists". */
export const LIST_LIMIT = 100
