import type { Db } from '../../db/database.ts';
import { notFound } from '../../core/app-error.ts';
import type { Caller } from '../../core/caller.ts';
import { assertVisible } from '../../core/tenant.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { transact } from './care-tx.ts';
import type { CaregiverService } from './caregiver.service.ts';
import { isOwnBinding } from './family.policy.ts';
import { FamilyRepository } from './family.repository.ts';

/**
 * Relatives' app bindings (GET /app/deleteUserFamily). A relative is bound to a resident by
 * being one of the resident's emergency contacts (relatives sign in with that phone), so
 * removing the binding removes that emergency contact. Managers remove any binding of their
 * providers, a caregiver only those of residents it looks after, a relative only its own.
 */
export class FamilyService {
  private readonly repo = new FamilyRepository();
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly caregivers: CaregiverService,
  ) {}

  async unbind(caller: Caller, id: number, ip: string): Promise<void> {
    await transact(this.db, async (tx) => {
      const binding = await this.repo.findById(tx, id);
      assertVisible(caller, binding);
      if (!binding) throw notFound();
      if (caller.role === 'CARER') {
        const me = await this.caregivers.ofAccount(caller.accountId, tx);
        if (!me?.enabled || !(await this.caregivers.isLinked(me.id, binding.residentId, tx))) throw notFound();
      }
      if (caller.role === 'RELATIVES' && !isOwnBinding(caller.userName, binding.phone)) throw notFound();
      await this.repo.delete(tx, id);
      await this.audit.byCaller(
        caller,
        ip,
        'family.unbind',
        {
          type: 'emergency_contact',
          id,
          providerId: binding.providerId,
          detail: { residentId: binding.residentId, relation: binding.relation },
        },
        tx,
      );
    });
  }
}
