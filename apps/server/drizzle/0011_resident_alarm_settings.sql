CREATE TABLE "resident_alarm_setting" (
	"resident_id" integer PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"rules" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "resident_alarm_setting" ADD CONSTRAINT "resident_alarm_setting_resident_id_resident_id_fk" FOREIGN KEY ("resident_id") REFERENCES "public"."resident"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resident_alarm_setting" ADD CONSTRAINT "resident_alarm_setting_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;