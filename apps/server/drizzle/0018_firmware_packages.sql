CREATE TABLE "firmware_package_chunk" (
	"package_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "firmware_package_chunk_pk" PRIMARY KEY("package_id","seq")
);
--> statement-breakpoint
CREATE TABLE "firmware_package" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_type" integer NOT NULL,
	"version" text NOT NULL,
	"file_name" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"md5" text NOT NULL,
	"sha256" text NOT NULL,
	"remark" text,
	"state" text DEFAULT 'unpublished' NOT NULL,
	"uploaded_by" integer,
	"uploaded_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone,
	"offline_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "firmware_package_chunk" ADD CONSTRAINT "firmware_package_chunk_package_id_firmware_package_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."firmware_package"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "firmware_package_type" ON "firmware_package" USING btree ("device_type","state");