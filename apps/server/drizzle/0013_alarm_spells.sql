CREATE TABLE "alarm_spell" (
	"device_id" text PRIMARY KEY NOT NULL,
	"spells" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
