CREATE TABLE "area" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"parent_id" integer,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bed" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"room_id" integer NOT NULL,
	"name" text NOT NULL,
	"mattress" text DEFAULT 'sponge' NOT NULL,
	"device_id" integer,
	"resident_id" integer,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "caregiver" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"job" text,
	"level" text DEFAULT 'normal' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "community" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"name" text NOT NULL,
	"address" text,
	"contact" text,
	"phone" text,
	"sleep_config" jsonb,
	"alarm_config" jsonb,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_stock" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" text NOT NULL,
	"cipher_id" text,
	"type_code" integer NOT NULL,
	"model" text,
	"imei" text,
	"imei_4g" text,
	"iccid" text,
	"firmware_type" text,
	"batch" text,
	"imported_by" integer,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"stock_id" integer NOT NULL,
	"device_id" text NOT NULL,
	"type_code" integer NOT NULL,
	"name" text,
	"comm_mode" text,
	"online" boolean DEFAULT false NOT NULL,
	"last_seen_at" timestamp with time zone,
	"firmware_version" text,
	"hardware_version" text,
	"signal" smallint,
	"battery" smallint,
	"installed" boolean DEFAULT false NOT NULL,
	"paired" boolean DEFAULT false NOT NULL,
	"sensor_initialised" boolean DEFAULT false NOT NULL,
	"sensitivity" smallint,
	"report_interval" smallint,
	"alg_mode" smallint,
	"upload_data" boolean DEFAULT false NOT NULL,
	"gateway_id" integer,
	"third_party_id" text,
	"third_party_synced_at" timestamp with time zone,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "emergency_contact" (
	"id" serial PRIMARY KEY NOT NULL,
	"resident_id" integer NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"relation" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resident_absence" (
	"id" serial PRIMARY KEY NOT NULL,
	"resident_id" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"reason" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resident_caregiver" (
	"resident_id" integer NOT NULL,
	"caregiver_id" integer NOT NULL,
	CONSTRAINT "resident_caregiver_resident_id_caregiver_id_pk" PRIMARY KEY("resident_id","caregiver_id")
);
--> statement-breakpoint
CREATE TABLE "resident" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"name" text NOT NULL,
	"gender" smallint NOT NULL,
	"birth_date" date,
	"height" smallint,
	"weight" smallint,
	"medical_history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"other_history" text,
	"remark" text,
	"priority" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'registered' NOT NULL,
	"room_id" integer,
	"community_id" integer,
	"admitted_at" timestamp with time zone,
	"checked_out_at" timestamp with time zone,
	"logged_off_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "room" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"floor_id" integer NOT NULL,
	"name" text NOT NULL,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "area" ADD CONSTRAINT "area_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "area" ADD CONSTRAINT "area_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."area"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bed" ADD CONSTRAINT "bed_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bed" ADD CONSTRAINT "bed_room_id_room_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."room"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bed" ADD CONSTRAINT "bed_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bed" ADD CONSTRAINT "bed_resident_id_resident_id_fk" FOREIGN KEY ("resident_id") REFERENCES "public"."resident"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "caregiver" ADD CONSTRAINT "caregiver_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "caregiver" ADD CONSTRAINT "caregiver_account_id_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community" ADD CONSTRAINT "community_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_stock_id_device_stock_id_fk" FOREIGN KEY ("stock_id") REFERENCES "public"."device_stock"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_gateway_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."device"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_contact" ADD CONSTRAINT "emergency_contact_resident_id_resident_id_fk" FOREIGN KEY ("resident_id") REFERENCES "public"."resident"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resident_absence" ADD CONSTRAINT "resident_absence_resident_id_resident_id_fk" FOREIGN KEY ("resident_id") REFERENCES "public"."resident"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resident_caregiver" ADD CONSTRAINT "resident_caregiver_resident_id_resident_id_fk" FOREIGN KEY ("resident_id") REFERENCES "public"."resident"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resident_caregiver" ADD CONSTRAINT "resident_caregiver_caregiver_id_caregiver_id_fk" FOREIGN KEY ("caregiver_id") REFERENCES "public"."caregiver"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resident" ADD CONSTRAINT "resident_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resident" ADD CONSTRAINT "resident_room_id_room_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."room"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resident" ADD CONSTRAINT "resident_community_id_community_id_fk" FOREIGN KEY ("community_id") REFERENCES "public"."community"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room" ADD CONSTRAINT "room_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room" ADD CONSTRAINT "room_floor_id_area_id_fk" FOREIGN KEY ("floor_id") REFERENCES "public"."area"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "area_name_unique" ON "area" USING btree ("provider_id",coalesce("parent_id", 0),lower("name"));--> statement-breakpoint
CREATE INDEX "area_parent_idx" ON "area" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bed_name_unique" ON "bed" USING btree ("room_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "bed_device_unique" ON "bed" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bed_resident_unique" ON "bed" USING btree ("resident_id");--> statement-breakpoint
CREATE INDEX "bed_provider_idx" ON "bed" USING btree ("provider_id");--> statement-breakpoint
CREATE UNIQUE INDEX "caregiver_phone_unique" ON "caregiver" USING btree ("provider_id","phone");--> statement-breakpoint
CREATE UNIQUE INDEX "caregiver_account_unique" ON "caregiver" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "community_name_unique" ON "community" USING btree ("provider_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "device_stock_device_id" ON "device_stock" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_stock_cipher_id" ON "device_stock" USING btree ("cipher_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_device_id" ON "device" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_stock_unique" ON "device" USING btree ("stock_id");--> statement-breakpoint
CREATE INDEX "device_provider_idx" ON "device" USING btree ("provider_id","type_code");--> statement-breakpoint
CREATE INDEX "device_gateway_idx" ON "device" USING btree ("gateway_id");--> statement-breakpoint
CREATE INDEX "emergency_contact_resident_idx" ON "emergency_contact" USING btree ("resident_id");--> statement-breakpoint
CREATE INDEX "emergency_contact_phone_idx" ON "emergency_contact" USING btree ("phone");--> statement-breakpoint
CREATE INDEX "resident_absence_resident_idx" ON "resident_absence" USING btree ("resident_id","starts_at");--> statement-breakpoint
CREATE INDEX "resident_caregiver_caregiver_idx" ON "resident_caregiver" USING btree ("caregiver_id");--> statement-breakpoint
CREATE INDEX "resident_provider_idx" ON "resident" USING btree ("provider_id","state");--> statement-breakpoint
CREATE INDEX "resident_name_idx" ON "resident" USING btree ("provider_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "room_name_unique" ON "room" USING btree ("floor_id",lower("name"));--> statement-breakpoint
CREATE INDEX "room_provider_idx" ON "room" USING btree ("provider_id");