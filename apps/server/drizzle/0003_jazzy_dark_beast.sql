CREATE TABLE "idempotency_key" (
	"account_id" integer NOT NULL,
	"call" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"answer" jsonb,
	"http_status" smallint,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_key_account_id_call_key_pk" PRIMARY KEY("account_id","call","key")
);
--> statement-breakpoint
CREATE INDEX "idempotency_key_created_idx" ON "idempotency_key" USING btree ("created_at");