CREATE TABLE "login_failure" (
	"user_name" text NOT NULL,
	"ip" text NOT NULL,
	"failures" integer NOT NULL,
	"first_failed_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	CONSTRAINT "login_failure_user_name_ip_pk" PRIMARY KEY("user_name","ip")
);
--> statement-breakpoint
CREATE INDEX "login_failure_ip" ON "login_failure" USING btree ("ip","first_failed_at");