CREATE TABLE "focus_resident" (
	"account_id" integer NOT NULL,
	"resident_id" integer NOT NULL,
	"provider_id" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "focus_resident_pk" PRIMARY KEY("account_id","resident_id")
);
--> statement-breakpoint
ALTER TABLE "focus_resident" ADD CONSTRAINT "focus_resident_account_id_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "focus_resident" ADD CONSTRAINT "focus_resident_resident_id_resident_id_fk" FOREIGN KEY ("resident_id") REFERENCES "public"."resident"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "focus_resident" ADD CONSTRAINT "focus_resident_provider_id_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "focus_resident_resident_idx" ON "focus_resident" USING btree ("resident_id");