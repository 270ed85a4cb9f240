CREATE TABLE "federation_keys" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"public_key" text NOT NULL,
	"sealed_private_key" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "federation_messages_seen" (
	"pairing_id" text NOT NULL,
	"message_id" text NOT NULL,
	"seen_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "federation_messages_seen_pairing_id_message_id_pk" PRIMARY KEY("pairing_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "pairing_invitations" (
	"secret_digest" text PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"organization_id" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referral_partners" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"name" text NOT NULL,
	"base_url" text NOT NULL,
	"peer_organization_id" text NOT NULL,
	"peer_pairing_id" text NOT NULL,
	"peer_public_key" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "federation_keys" ADD CONSTRAINT "federation_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pairing_invitations" ADD CONSTRAINT "pairing_invitations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_partners" ADD CONSTRAINT "referral_partners_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "federation_messages_seen_by_age" ON "federation_messages_seen" USING btree ("seen_at");--> statement-breakpoint
CREATE INDEX "pairing_invitations_by_expiry" ON "pairing_invitations" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "referral_partners_by_organization" ON "referral_partners" USING btree ("organization_id","status","created_at");