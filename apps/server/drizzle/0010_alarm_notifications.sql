CREATE TABLE "alarm_notification" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alarm_id" bigint NOT NULL,
	"provider_id" integer,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"caregiver_id" integer,
	"stage" smallint DEFAULT 1 NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alarm_notification" ADD CONSTRAINT "alarm_notification_alarm_id_alarm_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarm"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_notification_unique" ON "alarm_notification" USING btree ("alarm_id","channel","target","stage");--> statement-breakpoint
CREATE INDEX "alarm_notification_due" ON "alarm_notification" USING btree ("next_at") WHERE "alarm_notification"."state" = 'pending';