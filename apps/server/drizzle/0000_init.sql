CREATE TABLE "account_provider" (
	"account_id" integer NOT NULL,
	"provider_id" integer NOT NULL,
	CONSTRAINT "account_provider_account_id_provider_id_pk" PRIMARY KEY("account_id","provider_id")
);
--> statement-breakpoint
CREATE TABLE "account" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_name" text NOT NULL,
	"display_name" text NOT NULL,
	"role" text NOT NULL,
	"provider_id" integer,
	"password_hash" text NOT NULL,
	"must_change_password" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"permission_type" smallint DEFAULT 0 NOT NULL,
	"remark" text,
	"failed_logins" integer DEFAULT 0 NOT NULL,
	"first_failed_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" integer,
	"actor_name" text,
	"provider_id" integer,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"detail" jsonb,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "stored_file" (
	"id" uuid PRIMARY KEY NOT NULL,
	"provider_id" integer,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"number" text NOT NULL,
	"domain" text NOT NULL,
	"parent_id" integer,
	"provider_class" smallint NOT NULL,
	"logo_url" text,
	"platform_name" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "session" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"socket_key" text NOT NULL,
	"account_id" integer NOT NULL,
	"current_provider_id" integer,
	"channel" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoke_reason" text
);
--> statement-breakpoint
CREATE TABLE "setting" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_nonce" (
	"signature" text PRIMARY KEY NOT NULL,
	"used_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_provider" ADD CONSTRAINT "account_provider_account_id_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_provider" ADD CONSTRAINT "account_provider_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account" ADD CONSTRAINT "account_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_file" ADD CONSTRAINT "stored_file_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider" ADD CONSTRAINT "provider_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_account_id_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_current_provider_id_provider_id_fk" FOREIGN KEY ("current_provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_user_name_live" ON "account" USING btree (lower("user_name")) WHERE "account"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "account_provider_idx" ON "account" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "audit_log_at" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_provider" ON "audit_log" USING btree ("provider_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_name_live" ON "provider" USING btree (lower("name")) WHERE "provider"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_number_live" ON "provider" USING btree (lower("number")) WHERE "provider"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_domain" ON "provider" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "provider_parent_idx" ON "provider" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "session_token_hash" ON "session" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "session_socket_key" ON "session" USING btree ("socket_key");--> statement-breakpoint
CREATE INDEX "session_account_idx" ON "session" USING btree ("account_id");