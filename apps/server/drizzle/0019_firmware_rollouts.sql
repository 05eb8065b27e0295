CREATE TABLE "firmware_grey_device" (
	"package_id" integer NOT NULL,
	"device_row_id" integer NOT NULL,
	"added_by" integer,
	"added_at" timestamp with time zone NOT NULL,
	CONSTRAINT "firmware_grey_device_pk" PRIMARY KEY("package_id","device_row_id")
);
--> statement-breakpoint
CREATE TABLE "firmware_rollout" (
	"package_id" integer PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"stages" integer[] NOT NULL,
	"stage" smallint DEFAULT 0 NOT NULL,
	"failure_threshold" smallint NOT NULL,
	"state" text NOT NULL,
	"paused_reason" text,
	"force_occupied" boolean DEFAULT false NOT NULL,
	"started_by" integer,
	"started_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_upgrade" (
	"id" serial PRIMARY KEY NOT NULL,
	"package_id" integer NOT NULL,
	"device_row_id" integer NOT NULL,
	"provider_id" integer NOT NULL,
	"stage" smallint NOT NULL,
	"state" text NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"from_version" text,
	"command_id" integer,
	"download_token" text,
	"link_expires_at" timestamp with time zone,
	"error" text,
	"updated_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "firmware_grey_device" ADD CONSTRAINT "firmware_grey_device_package_id_firmware_package_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."firmware_package"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_grey_device" ADD CONSTRAINT "firmware_grey_device_device_row_id_device_id_fk" FOREIGN KEY ("device_row_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_rollout" ADD CONSTRAINT "firmware_rollout_package_id_firmware_package_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."firmware_package"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_upgrade" ADD CONSTRAINT "firmware_upgrade_package_id_firmware_package_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."firmware_package"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_upgrade" ADD CONSTRAINT "firmware_upgrade_device_row_id_device_id_fk" FOREIGN KEY ("device_row_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_upgrade" ADD CONSTRAINT "firmware_upgrade_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_upgrade_device" ON "firmware_upgrade" USING btree ("package_id","device_row_id");--> statement-breakpoint
CREATE INDEX "firmware_upgrade_state" ON "firmware_upgrade" USING btree ("package_id","state");--> statement-breakpoint
CREATE INDEX "firmware_upgrade_device_row" ON "firmware_upgrade" USING btree ("device_row_id");--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_upgrade_token" ON "firmware_upgrade" USING btree ("download_token");