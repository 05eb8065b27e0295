CREATE TABLE "device_event" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" text NOT NULL,
	"seq" bigint,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"event" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"provider_id" integer,
	"device_row_id" integer,
	"bed_id" integer,
	"resident_id" integer
);
--> statement-breakpoint
CREATE TABLE "device_minute" (
	"device_id" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"provider_id" integer,
	"bed_id" integer,
	"resident_id" integer,
	"samples" integer NOT NULL,
	"hr_samples" integer NOT NULL,
	"hr_min" smallint,
	"hr_avg" real,
	"hr_max" smallint,
	"rr_samples" integer NOT NULL,
	"rr_min" smallint,
	"rr_avg" real,
	"rr_max" smallint,
	"in_bed_s" smallint NOT NULL,
	"asleep_s" smallint NOT NULL,
	"move_avg" real NOT NULL,
	"move_max" smallint NOT NULL,
	"rri" integer[],
	CONSTRAINT "device_minute_pk" PRIMARY KEY("device_id","minute")
);
--> statement-breakpoint
CREATE TABLE "device_raw" (
	"device_id" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"provider_id" integer,
	"samples" jsonb NOT NULL,
	CONSTRAINT "device_raw_pk" PRIMARY KEY("device_id","minute")
);
--> statement-breakpoint
ALTER TABLE "device_stock" ADD COLUMN "secret_hash" text;--> statement-breakpoint
ALTER TABLE "device_stock" ADD COLUMN "secret_set_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "device_event_seq" ON "device_event" USING btree ("device_id","seq","occurred_at");--> statement-breakpoint
CREATE INDEX "device_event_device_idx" ON "device_event" USING btree ("device_id","occurred_at");--> statement-breakpoint
CREATE INDEX "device_event_provider_idx" ON "device_event" USING btree ("provider_id","received_at");--> statement-breakpoint
CREATE INDEX "device_event_resident_idx" ON "device_event" USING btree ("resident_id","occurred_at");--> statement-breakpoint
CREATE INDEX "device_minute_resident_idx" ON "device_minute" USING btree ("resident_id","minute");--> statement-breakpoint
CREATE INDEX "device_raw_minute_idx" ON "device_raw" USING btree ("minute");--> statement-breakpoint
CREATE INDEX "device_raw_provider_idx" ON "device_raw" USING btree ("provider_id","minute");