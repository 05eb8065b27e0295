CREATE TABLE "app_package_chunk" (
	"package_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "app_package_chunk_pk" PRIMARY KEY("package_id","seq")
);
--> statement-breakpoint
CREATE TABLE "app_package" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"uploaded_by" integer,
	"uploaded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_version" (
	"id" serial PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"version_name" text NOT NULL,
	"build_number" text NOT NULL,
	"notes" text NOT NULL,
	"store_url" text,
	"package_id" integer,
	"h5_version_id" integer,
	"force" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'unpublished' NOT NULL,
	"created_by" integer,
	"uploaded_at" timestamp with time zone NOT NULL,
	"published_at" timestamp with time zone,
	"off_shelf_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "h5_version" (
	"id" serial PRIMARY KEY NOT NULL,
	"version_name" text NOT NULL,
	"package_id" integer NOT NULL,
	"state" text DEFAULT 'unpublished' NOT NULL,
	"created_by" integer,
	"uploaded_at" timestamp with time zone NOT NULL,
	"published_at" timestamp with time zone,
	"off_shelf_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "app_package_chunk" ADD CONSTRAINT "app_package_chunk_package_id_app_package_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."app_package"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_version" ADD CONSTRAINT "app_version_package_id_app_package_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."app_package"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_version" ADD CONSTRAINT "app_version_h5_version_id_h5_version_id_fk" FOREIGN KEY ("h5_version_id") REFERENCES "public"."h5_version"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "h5_version" ADD CONSTRAINT "h5_version_package_id_app_package_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."app_package"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_version_build" ON "app_version" USING btree ("platform","build_number");--> statement-breakpoint
CREATE INDEX "app_version_state" ON "app_version" USING btree ("platform","state");--> statement-breakpoint
CREATE INDEX "app_version_package" ON "app_version" USING btree ("package_id");--> statement-breakpoint
CREATE UNIQUE INDEX "h5_version_name" ON "h5_version" USING btree ("version_name");--> statement-breakpoint
CREATE INDEX "h5_version_package" ON "h5_version" USING btree ("package_id");