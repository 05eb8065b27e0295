import type { Caller } from './caller.ts';

/**
 * Who makes a change: a signed-in account (with the address it called from), or the platform
 * itself — device ingest, the alarm engine, schedulers and rollouts run without a session and
 * still leave an audit trail naming the part that acted.
 */
export type Actor = { kind: 'account'; caller: Caller; ip: string } | { kind: 'system'; name: SystemActorName };

/** The parts of the platform that change data on their own. */
export type SystemActorName = 'ingest' | 'alarms' | 'scheduler' | 'rollout' | 'demo';

export const accountActor = (caller: Caller, ip: string): Actor => ({ kind: 'account', caller, ip });
export const systemActor = (name: SystemActorName): Actor => ({ kind: 'system', name });

/** How an actor is written in the audit log's actor columns. */
export const auditActorOf = (
  actor: Actor,
): { actorId: number | null; actorName: string; providerId: number | null; ip: string | undefined } =>
  actor.kind === 'account'
    ? {
        actorId: actor.caller.accountId,
        actorName: actor.caller.userName,
        providerId: actor.caller.providerId,
        ip: actor.ip,
      }
    : { actorId: null, actorName: `system:${actor.name}`, providerId: null, ip: undefined };
