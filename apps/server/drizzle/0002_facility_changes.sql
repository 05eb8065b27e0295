CREATE TABLE "device_command" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"device_row_id" integer,
	"device_id" text NOT NULL,
	"command" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"acked_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device" ADD COLUMN "third_party_status" text;--> statement-breakpoint
ALTER TABLE "device_command" ADD CONSTRAINT "device_command_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_command" ADD CONSTRAINT "device_command_device_row_id_device_id_fk" FOREIGN KEY ("device_row_id") REFERENCES "public"."device"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_command" ADD CONSTRAINT "device_command_created_by_account_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_command_pending_idx" ON "device_command" USING btree ("device_id","created_at") WHERE "device_command"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "device_command_device_idx" ON "device_command" USING btree ("device_row_id");--> statement-breakpoint
CREATE INDEX "device_command_provider_idx" ON "device_command" USING btree ("provider_id");--> statement-breakpoint
ALTER TABLE "device_stock" ADD CONSTRAINT "device_stock_imported_by_account_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."account"("id") ON DELETE no action ON UPDATE no action;