ALTER TABLE "resident_alarm_setting" ALTER COLUMN "rules" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "resident_alarm_setting" ADD COLUMN "receivers" jsonb;