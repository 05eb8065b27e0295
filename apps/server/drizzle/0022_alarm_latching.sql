ALTER TABLE "alarm" ADD COLUMN "cleared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alarm" ADD COLUMN "awaiting_ack" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "alarm" ADD COLUMN "handled_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "alarm_provider_awaiting_idx" ON "alarm" USING btree ("provider_id","raised_at") WHERE "alarm"."awaiting_ack";--> statement-breakpoint
UPDATE "alarm" SET "handled_at" = "released_at" WHERE "release_kind" = 1;--> statement-breakpoint
UPDATE "alarm" SET "cleared_at" = "released_at" WHERE "release_kind" = 2;