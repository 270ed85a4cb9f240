// Written by `npm run db:generate` (scripts/bundle-migrations.ts) from meta/_journal.json: do not edit.
import { bundledMigrations } from '../../sql/bundled-migrations'
import journal from './meta/_journal.json' with { type: 'json' }
import m0 from './0000_init.sql' with { type: 'text' }
import m1 from './0001_constituent_search.sql' with { type: 'text' }
import m2 from './0002_members_settings_outbox.sql' with { type: 'text' }
import m3 from './0003_sms.sql' with { type: 'text' }
import m4 from './0004_unique_provider_message.sql' with { type: 'text' }
import m5 from './0005_early_sms_statuses.sql' with { type: 'text' }
import m6 from './0006_login_failures_by_address.sql' with { type: 'text' }
import m7 from './0007_need_counts.sql' with { type: 'text' }
import m8 from './0008_password_reset.sql' with { type: 'text' }
import m9 from './0009_webhooks.sql' with { type: 'text' }
import m10 from './0010_audit_events.sql' with { type: 'text' }
import m11 from './0011_search_terms_per_organization.sql' with { type: 'text' }
import m12 from './0012_constituent_counts.sql' with { type: 'text' }
import m13 from './0013_audit_events_by_action.sql' with { type: 'text' }
import m14 from './0014_organization_origins.sql' with { type: 'text' }
import m15 from './0015_member_deactivation.sql' with { type: 'text' }
import m16 from './0016_member_notifications.sql' with { type: 'text' }
import m17 from './0017_member_last_login.sql' with { type: 'text' }
import m18 from './0018_daily_digest.sql' with { type: 'text' }
import m19 from './0019_erasure_and_retention.sql' with { type: 'text' }
import m20 from './0020_due_dates_and_reports.sql' with { type: 'text' }
import m21 from './0021_partial_need_indexes.sql' with { type: 'text' }
import m22 from './0022_kept_counts_without_rowid.sql' with { type: 'text' }
import m23 from './0023_open_by_due_with_status.sql' with { type: 'text' }
import m24 from './0024_lost_renewals.sql' with { type: 'text' }
import m25 from './0025_email_keys_are_mailboxes.sql' with { type: 'text' }
import m26 from './0026_idempotency_keys.sql' with { type: 'text' }
import m27 from './0027_saved_views.sql' with { type: 'text' }
import m28 from './0028_live_events.sql' with { type: 'text' }
import m29 from './0029_need_search.sql' with { type: 'text' }
import m30 from './0030_sms_conversations.sql' with { type: 'text' }
import m31 from './0031_organization_default_country.sql' with { type: 'text' }
import m32 from './0032_sms_help_and_quick_replies.sql' with { type: 'text' }
import m33 from './0033_organization_slug_history.sql' with { type: 'text' }
import m34 from './0034_member_email_changes.sql' with { type: 'text' }
import m35 from './0035_services.sql' with { type: 'text' }
import m36 from './0036_development_outbox.sql' with { type: 'text' }
import m37 from './0037_federation.sql' with { type: 'text' }
import m38 from './0038_publish_directory.sql' with { type: 'text' }
import m39 from './0039_report_kept_figures.sql' with { type: 'text' }
import m40 from './0040_referrals.sql' with { type: 'text' }

export const SQLITE_MIGRATIONS = bundledMigrations(journal, {
  '0000_init': m0,
  '0001_constituent_search': m1,
  '0002_members_settings_outbox': m2,
  '0003_sms': m3,
  '0004_unique_provider_message': m4,
  '0005_early_sms_statuses': m5,
  '0006_login_failures_by_address': m6,
  '0007_need_counts': m7,
  '0008_password_reset': m8,
  '0009_webhooks': m9,
  '0010_audit_events': m10,
  '0011_search_terms_per_organization': m11,
  '0012_constituent_counts': m12,
  '0013_audit_events_by_action': m13,
  '0014_organization_origins': m14,
  '0015_member_deactivation': m15,
  '0016_member_notifications': m16,
  '0017_member_last_login': m17,
  '0018_daily_digest': m18,
  '0019_erasure_and_retention': m19,
  '0020_due_dates_and_reports': m20,
  '0021_partial_need_indexes': m21,
  '0022_kept_counts_without_rowid': m22,
  '0023_open_by_due_with_status': m23,
  '0024_lost_renewals': m24,
  '0025_email_keys_are_mailboxes': m25,
  '0026_idempotency_keys': m26,
  '0027_saved_views': m27,
  '0028_live_events': m28,
  '0029_need_search': m29,
  '0030_sms_conversations': m30,
  '0031_organization_default_country': m31,
  '0032_sms_help_and_quick_replies': m32,
  '0033_organization_slug_history': m33,
  '0034_member_email_changes': m34,
  '0035_services': m35,
  '0036_development_outbox': m36,
  '0037_federation': m37,
  '0038_publish_directory': m38,
  '0039_report_kept_figures': m39,
  '0040_referrals': m40,
})
