CREATE TABLE "device_live_state" (
	"device_id" text PRIMARY KEY NOT NULL,
	"online" boolean NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"battery" smallint,
	"signal" smallint,
	"firmware_version" text,
	"hardware_version" text,
	"mat" text,
	"updated_at" timestamp with time zone NOT NULL
);
