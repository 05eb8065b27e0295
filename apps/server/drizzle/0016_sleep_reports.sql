CREATE TABLE "sleep_report" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"resident_id" integer NOT NULL,
	"bed_id" integer,
	"night" date NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_end" timestamp with time zone NOT NULL,
	"state" text NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"computed_at" timestamp with time zone,
	"analysis_version" smallint,
	"report" jsonb,
	"error" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sleep_report_night" ON "sleep_report" USING btree ("resident_id","night");--> statement-breakpoint
CREATE INDEX "sleep_report_provider_night" ON "sleep_report" USING btree ("provider_id","night");