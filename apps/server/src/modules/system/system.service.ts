import { randomUUID } from 'node:crypto';
import { CONSTANTS, getFile, type UploadedFile } from '@vigil/contract';
import type { Db, Executor } from '../../db/database.ts';
import type { Clock } from '../../clock.ts';
import { fileTooLarge, invalid, notFound } from '../../core/app-error.ts';
import type { Caller } from '../../core/caller.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import { FileRepository, type FileOwner } from './file.repository.ts';
import { decodePng } from './png.ts';
import { assertStoredLogo } from './stored-logo.ts';
import type { SettingsService } from './settings.service.ts';
import type { Transactions } from '../../db/transactions.ts';

const PLATFORM = 'system.platform';
const DEFAULT_PLATFORM_NAME = 'Vigil';

interface PlatformSetting {
  platformName: string;
  logoUrl: string | null;
}

export class SystemService {
  private readonly files = new FileRepository();
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: SettingsService,
    private readonly providers: ProviderService,
    private readonly audit: AuditService,
    private readonly transactions: Transactions,
  ) {}

  /** `tx` inside a transaction: PGlite has one connection, a query beside the transaction waits forever. */
  private async platform(tx: Executor = this.db): Promise<PlatformSetting> {
    return (
      (await this.settings.get<PlatformSetting>(PLATFORM, tx)) ?? { platformName: DEFAULT_PLATFORM_NAME, logoUrl: null }
    );
  }

  /** A provider's own branding (or its parent's) overrides the platform's. */
  async platformFor(caller: Caller | null): Promise<PlatformSetting> {
    const platform = await this.platform();
    if (!caller || caller.providerId === null) return platform;
    const own = await this.providers.findById(caller.providerId);
    const parent = own?.parentId ? await this.providers.findById(own.parentId) : undefined;
    return {
      platformName: own?.platformName ?? parent?.platformName ?? platform.platformName,
      logoUrl: own?.logoUrl ?? parent?.logoUrl ?? platform.logoUrl,
    };
  }

  /**
   * A provider account sets its own provider's name and logo (its accounts see them, and a
   * class 1 provider's also show for class 2 providers without their own); the platform
   * administrator sets the platform's.
   */
  async setPlatform(caller: Caller, change: { platformName: string; logoUrl?: string | null | undefined }, ip: string) {
    await this.transactions.run(async (tx, emit) => {
      const providerId = caller.providerId;
      await assertStoredLogo(tx, change.logoUrl, { providerId });
      if (providerId !== null) {
        await this.providers.setBranding(providerId, change, tx);
        await this.audit.byCaller(
          caller,
          ip,
          'provider.branding',
          { type: 'provider', id: providerId, providerId, detail: { ...change } },
          tx,
        );
        // Consoles of the provider's accounts follow the new title and icon (live push: next issue).
        emit({ type: 'branding.changed', providerId, payload: { ...change } });
        return;
      }
      const current = await this.platform(tx);
      const next: PlatformSetting = {
        platformName: change.platformName,
        logoUrl: change.logoUrl === undefined ? current.logoUrl : change.logoUrl,
      };
      await this.settings.put(PLATFORM, next, tx);
      await this.audit.byCaller(
        caller,
        ip,
        'platform.update',
        { type: 'platform', id: 'platform', providerId: null, detail: { ...next } },
        tx,
      );
      emit({ type: 'branding.changed', providerId: null, payload: { ...next } });
    });
  }

  /**
   * Logos only: a whole valid PNG, exactly 200×200 px, under 100 KB. Stored in the database so
   * every instance serves it. The uploader's earlier logos that nothing shows are deleted, so
   * repeated uploads cannot fill the database.
   */
  async uploadLogo(caller: Caller, file: UploadedFile | undefined): Promise<{ url: string; size: number }> {
    const { logo } = CONSTANTS;
    if (!file || file.size === 0) throw invalid('upload.missing');
    if (file.size >= logo.maxBytes) throw fileTooLarge(logo.maxBytes);
    const bytes = await file.read();
    const size = decodePng(bytes);
    if (!size) throw invalid('upload.notPng');
    if (size.width !== logo.widthPx || size.height !== logo.heightPx) {
      throw invalid('upload.dimensions', {
        width: logo.widthPx,
        height: logo.heightPx,
        actualWidth: size.width,
        actualHeight: size.height,
      });
    }
    const id = randomUUID();
    const owner: FileOwner =
      caller.providerId === null ? { accountId: caller.accountId } : { providerId: caller.providerId };
    await this.db.transaction(async (tx) => {
      await this.files.insert(tx, {
        id,
        providerId: caller.providerId,
        contentType: logo.type,
        size: bytes.length,
        bytes,
        uploadedBy: caller.accountId,
        createdAt: this.clock.now(),
      });
      await this.files.deleteUnused(tx, owner, id);
    });
    return { url: `${getFile.path}?id=${id}`, size: bytes.length };
  }

  async file(id: string) {
    const row = await this.files.findById(this.db, id);
    if (!row) throw notFound();
    return { contentType: row.contentType, bytes: row.bytes, immutable: true };
  }
}
