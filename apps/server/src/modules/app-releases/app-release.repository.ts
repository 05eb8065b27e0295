import { aliasedTable, and, count, desc, eq, gt, inArray, lt, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { appPackages, appVersions, h5Versions } from '../../db/schema.ts';

export type PackageRow = typeof appPackages.$inferSelect;
export type AppVersionRow = typeof appVersions.$inferSelect;
export type H5VersionRow = typeof h5Versions.$inferSelect;

/** An app version with its package and H5 package, as lists show it. */
export interface AppVersionView {
  version: AppVersionRow;
  file: PackageRow | null;
  h5: { id: number; versionName: string; state: string; file: PackageRow } | null;
}

export interface H5VersionView {
  version: H5VersionRow;
  file: PackageRow;
}

/** Advisory lock (pg_advisory_xact_lock(class, key)) every release write takes first. */
const RELEASE_LOCK = { class: 0x5f1b, key: 1 } as const;

/** A build number (digits, no leading zeros) as a number in SQL: 20 digits exceed a bigint. */
const buildOf = (column: typeof appVersions.buildNumber) => sql`${column}::numeric`;

const h5Package = aliasedTable(appPackages, 'h5_package');

export class AppReleaseRepository {
  /**
   * Serialises release writes: each checks the others (a build above every published one, a free
   * build or H5 name), and one lock taken first, before any row, can never deadlock. Releases
   * change a few times a month.
   */
  async lock(tx: Executor): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(${RELEASE_LOCK.class}, ${RELEASE_LOCK.key})`);
  }

  async insertPackage(tx: Executor, values: typeof appPackages.$inferInsert): Promise<PackageRow> {
    const [row] = await tx.insert(appPackages).values(values).returning();
    if (!row) throw new Error('app package insert returned no row');
    return row;
  }

  async findPackage(db: Executor, id: number): Promise<PackageRow | undefined> {
    const [row] = await db.select().from(appPackages).where(eq(appPackages.id, id));
    return row;
  }

  /** A package some published app version or H5 package serves; undefined for any other. */
  async findServedPackage(db: Executor, id: number): Promise<PackageRow | undefined> {
    const byApp = db
      .select({ id: appVersions.id })
      .from(appVersions)
      .where(and(eq(appVersions.packageId, id), eq(appVersions.state, 'published')));
    const byH5 = db
      .select({ id: h5Versions.id })
      .from(h5Versions)
      .where(and(eq(h5Versions.packageId, id), eq(h5Versions.state, 'published')));
    const [row] = await db
      .select()
      .from(appPackages)
      .where(and(eq(appPackages.id, id), or(sql`exists ${byApp}`, sql`exists ${byH5}`)));
    return row;
  }

  /**
   * Deletes packages no release uses: those of `ids` (a deleted release's), and any uploaded
   * before `staleBefore` that no release ever took. Their chunks go with them (cascade).
   */
  async deleteUnusedPackages(tx: Executor, which: { ids?: number[]; staleBefore?: Date }): Promise<number> {
    const unused = and(
      notExists(tx.select({ id: appVersions.id }).from(appVersions).where(eq(appVersions.packageId, appPackages.id))),
      notExists(tx.select({ id: h5Versions.id }).from(h5Versions).where(eq(h5Versions.packageId, appPackages.id))),
    );
    const chosen: SQL[] = [];
    if (which.ids?.length) chosen.push(inArray(appPackages.id, which.ids));
    if (which.staleBefore) chosen.push(lt(appPackages.uploadedAt, which.staleBefore));
    if (!chosen.length) return 0;
    const deleted = await tx
      .delete(appPackages)
      .where(and(unused, or(...chosen)))
      .returning({ id: appPackages.id });
    return deleted.length;
  }

  // --- App versions

  private versionViews(db: Executor) {
    return db
      .select({
        version: appVersions,
        file: appPackages,
        h5: { id: h5Versions.id, versionName: h5Versions.versionName, state: h5Versions.state },
        h5File: h5Package,
      })
      .from(appVersions)
      .leftJoin(appPackages, eq(appPackages.id, appVersions.packageId))
      .leftJoin(h5Versions, eq(h5Versions.id, appVersions.h5VersionId))
      .leftJoin(h5Package, eq(h5Package.id, h5Versions.packageId));
  }

  private static view(row: {
    version: AppVersionRow;
    file: PackageRow | null;
    h5: { id: number; versionName: string; state: string } | null;
    h5File: PackageRow | null;
  }): AppVersionView {
    return {
      version: row.version,
      file: row.file,
      h5: row.h5 && row.h5File ? { ...row.h5, file: row.h5File } : null,
    };
  }

  async pageVersions(
    db: Executor,
    q: { platform?: string | undefined; state?: string | undefined; offset: number; limit: number },
    order: 'upload' | 'build',
  ): Promise<{ rows: AppVersionView[]; total: number }> {
    const where = and(
      q.platform === undefined ? undefined : eq(appVersions.platform, q.platform),
      q.state === undefined ? undefined : eq(appVersions.state, q.state),
    );
    const ordering =
      order === 'build'
        ? [desc(buildOf(appVersions.buildNumber)), desc(appVersions.id)]
        : [desc(appVersions.uploadedAt), desc(appVersions.id)];
    const rows = await this.versionViews(db)
      .where(where)
      .orderBy(...ordering)
      .limit(q.limit)
      .offset(q.offset);
    const [total] = await db.select({ n: count() }).from(appVersions).where(where);
    return { rows: rows.map((row) => AppReleaseRepository.view(row)), total: total?.n ?? 0 };
  }

  async findVersionView(db: Executor, id: number): Promise<AppVersionView | undefined> {
    const [row] = await this.versionViews(db).where(eq(appVersions.id, id));
    return row ? AppReleaseRepository.view(row) : undefined;
  }

  async findVersion(db: Executor, id: number, lock = false): Promise<AppVersionRow | undefined> {
    const query = db.select().from(appVersions).where(eq(appVersions.id, id));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  }

  async findBuild(db: Executor, platform: string, buildNumber: string): Promise<AppVersionRow | undefined> {
    const [row] = await db
      .select()
      .from(appVersions)
      .where(and(eq(appVersions.platform, platform), eq(appVersions.buildNumber, buildNumber)));
    return row;
  }

  /** The published version of the platform with the highest build. */
  async newestPublished(db: Executor, platform: string): Promise<AppVersionRow | undefined> {
    const [row] = await db
      .select()
      .from(appVersions)
      .where(and(eq(appVersions.platform, platform), eq(appVersions.state, 'published')))
      .orderBy(desc(buildOf(appVersions.buildNumber)))
      .limit(1);
    return row;
  }

  /**
   * For the version check: the newest published version of the platform with a build above
   * `build`, and whether any published version above `build` (it included) is marked force.
   */
  async newerThan(
    db: Executor,
    platform: string,
    build: string,
  ): Promise<{ newest: AppVersionView; forced: boolean } | undefined> {
    const newer = and(
      eq(appVersions.platform, platform),
      eq(appVersions.state, 'published'),
      gt(buildOf(appVersions.buildNumber), sql`${build}::numeric`),
    );
    const [row] = await this.versionViews(db)
      .where(newer)
      .orderBy(desc(buildOf(appVersions.buildNumber)))
      .limit(1);
    if (!row) return undefined;
    const [forced] = await db
      .select({ n: count() })
      .from(appVersions)
      .where(and(newer, eq(appVersions.force, true)));
    return { newest: AppReleaseRepository.view(row), forced: (forced?.n ?? 0) > 0 };
  }

  async insertVersion(tx: Executor, values: typeof appVersions.$inferInsert): Promise<AppVersionRow> {
    const [row] = await tx.insert(appVersions).values(values).returning();
    if (!row) throw new Error('app version insert returned no row');
    return row;
  }

  async setVersionState(tx: Executor, id: number, state: string, at: Date): Promise<void> {
    await tx
      .update(appVersions)
      .set(state === 'published' ? { state, publishedAt: at } : { state, offShelfAt: at })
      .where(eq(appVersions.id, id));
  }

  async deleteVersion(tx: Executor, id: number): Promise<void> {
    await tx.delete(appVersions).where(eq(appVersions.id, id));
  }

  // --- H5 packages

  async pageH5(
    db: Executor,
    q: { state?: string | undefined; offset: number; limit: number },
  ): Promise<{ rows: H5VersionView[]; total: number }> {
    const where = q.state === undefined ? undefined : eq(h5Versions.state, q.state);
    const rows = await db
      .select({ version: h5Versions, file: appPackages })
      .from(h5Versions)
      .innerJoin(appPackages, eq(appPackages.id, h5Versions.packageId))
      .where(where)
      .orderBy(desc(h5Versions.uploadedAt), desc(h5Versions.id))
      .limit(q.limit)
      .offset(q.offset);
    const [total] = await db.select({ n: count() }).from(h5Versions).where(where);
    return { rows, total: total?.n ?? 0 };
  }

  async findH5View(db: Executor, id: number): Promise<H5VersionView | undefined> {
    const [row] = await db
      .select({ version: h5Versions, file: appPackages })
      .from(h5Versions)
      .innerJoin(appPackages, eq(appPackages.id, h5Versions.packageId))
      .where(eq(h5Versions.id, id));
    return row;
  }

  async findH5(db: Executor, id: number, lock = false): Promise<H5VersionRow | undefined> {
    const query = db.select().from(h5Versions).where(eq(h5Versions.id, id));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  }

  async findH5ByName(db: Executor, versionName: string): Promise<H5VersionRow | undefined> {
    const [row] = await db.select().from(h5Versions).where(eq(h5Versions.versionName, versionName));
    return row;
  }

  async insertH5(tx: Executor, values: typeof h5Versions.$inferInsert): Promise<H5VersionRow> {
    const [row] = await tx.insert(h5Versions).values(values).returning();
    if (!row) throw new Error('H5 version insert returned no row');
    return row;
  }

  async updateH5(tx: Executor, id: number, change: { versionName: string; packageId: number }): Promise<void> {
    await tx.update(h5Versions).set(change).where(eq(h5Versions.id, id));
  }

  async setH5State(tx: Executor, id: number, state: string, at: Date): Promise<void> {
    await tx
      .update(h5Versions)
      .set(state === 'published' ? { state, publishedAt: at } : { state, offShelfAt: at })
      .where(eq(h5Versions.id, id));
  }

  async deleteH5(tx: Executor, id: number): Promise<void> {
    await tx.delete(h5Versions).where(eq(h5Versions.id, id));
  }
}
