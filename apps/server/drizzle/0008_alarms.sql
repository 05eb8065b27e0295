CREATE TABLE "alarm_timeline" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alarm_id" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"step" text NOT NULL,
	"account_id" integer,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider_id" integer,
	"device_id" text NOT NULL,
	"device_type" integer NOT NULL,
	"device_row_id" integer,
	"bed_id" integer,
	"resident_id" integer,
	"alert_type" text NOT NULL,
	"level" smallint NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"raised_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"event_id" bigint,
	"release_kind" smallint DEFAULT 0 NOT NULL,
	"released_at" timestamp with time zone,
	"relieve_reason" text,
	"deal_result" text,
	"handled_by" integer,
	"handler_name" text,
	"remark" text
);
--> statement-breakpoint
ALTER TABLE "alarm_timeline" ADD CONSTRAINT "alarm_timeline_alarm_id_alarm_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarm"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarm_timeline_alarm_idx" ON "alarm_timeline" USING btree ("alarm_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_open_unique" ON "alarm" USING btree ("device_id","alert_type") WHERE "alarm"."release_kind" = 0;--> statement-breakpoint
CREATE INDEX "alarm_provider_open_idx" ON "alarm" USING btree ("provider_id","raised_at") WHERE "alarm"."release_kind" = 0;--> statement-breakpoint
CREATE INDEX "alarm_provider_idx" ON "alarm" USING btree ("provider_id","raised_at");--> statement-breakpoint
CREATE INDEX "alarm_resident_idx" ON "alarm" USING btree ("resident_id","raised_at");--> statement-breakpoint
-- The offline alarm's type is CONNECTION (the spec's name); community settings stored OFFLINE.
UPDATE "community" SET "alarm_config" = replace("alarm_config"::text, '"OFFLINE"', '"CONNECTION"')::jsonb WHERE "alarm_config"::text LIKE '%"OFFLINE"%';
