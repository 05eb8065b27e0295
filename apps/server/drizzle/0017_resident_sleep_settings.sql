CREATE TABLE "resident_sleep_setting" (
	"resident_id" integer PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"leave_bed_mode" text NOT NULL,
	"sleep_time" text NOT NULL,
	"wake_time" text NOT NULL,
	"sensitivity" text NOT NULL,
	"mattress" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "resident_sleep_setting" ADD CONSTRAINT "resident_sleep_setting_resident_id_resident_id_fk" FOREIGN KEY ("resident_id") REFERENCES "public"."resident"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resident_sleep_setting" ADD CONSTRAINT "resident_sleep_setting_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "resident_sleep_setting_provider" ON "resident_sleep_setting" USING btree ("provider_id");--> statement-breakpoint
-- Settings saved through the community calls move to their residents (decision 0027): one
-- place for a resident's sleep settings, whichever screen saved them.
INSERT INTO "resident_sleep_setting" ("resident_id", "provider_id", "leave_bed_mode", "sleep_time", "wake_time", "sensitivity", "mattress", "updated_at", "updated_by")
SELECT r."id", r."provider_id", e.value->>'leaveBedMode', e.value->>'sleepTime', e.value->>'wakeTime', e.value->>'sensitivity', e.value->>'mattress',
       coalesce((e.value->>'updatedAt')::timestamptz, now()), (e.value->>'updatedBy')::integer
FROM "community" c
CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(c."sleep_config") = 'object' THEN c."sleep_config" ELSE '{}'::jsonb END) e
JOIN "resident" r ON r."id"::text = e.key
WHERE jsonb_typeof(e.value) = 'object' AND e.value ? 'sleepTime' AND e.value ? 'wakeTime'
ON CONFLICT ("resident_id") DO NOTHING;--> statement-breakpoint
ALTER TABLE "community" DROP COLUMN "sleep_config";