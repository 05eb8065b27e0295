import type { Db, Executor } from '../../db/database.ts';
import type { Clock } from '../../clock.ts';
import { SettingsRepository } from './settings.repository.ts';

/** Instance-wide settings kept in the database, so every server instance agrees. */
export class SettingsService {
  private readonly repo = new SettingsRepository();
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async get<T>(key: string, tx: Executor = this.db): Promise<T | undefined> {
    return (await this.repo.get(tx, key)) as T | undefined;
  }

  /** Stores `value` unless the key exists; returns what is stored either way. */
  async getOrInit<T>(key: string, value: T): Promise<T> {
    await this.repo.insertIfAbsent(this.db, key, value, this.clock.now());
    return (await this.repo.get(this.db, key)) as T;
  }

  put(key: string, value: unknown, tx: Executor = this.db): Promise<void> {
    return this.repo.put(tx, key, value, this.clock.now());
  }
}
