CREATE TABLE "alarm_setting" (
	"provider_id" integer PRIMARY KEY NOT NULL,
	"levels" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"level1" jsonb NOT NULL,
	"level2" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "alarm_setting" ADD CONSTRAINT "alarm_setting_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Communities' alarm levels become a level map (decision 0025): level1/level2 lists → {"levels": {type: 1|2}}.
UPDATE "community" SET "alarm_config" = jsonb_build_object(
  'levels',
  (SELECT coalesce(jsonb_object_agg(t, 1), '{}'::jsonb) FROM jsonb_array_elements_text(coalesce("alarm_config"->'level1', '[]'::jsonb)) AS t)
    || (SELECT coalesce(jsonb_object_agg(t, 2), '{}'::jsonb) FROM jsonb_array_elements_text(coalesce("alarm_config"->'level2', '[]'::jsonb)) AS t),
  'receiverIds', coalesce("alarm_config"->'receiverIds', '[]'::jsonb),
  'notify', coalesce("alarm_config"->'notify', '["page"]'::jsonb)
) WHERE "alarm_config" ? 'level1' OR "alarm_config" ? 'level2';
