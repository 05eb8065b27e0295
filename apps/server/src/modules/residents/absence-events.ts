/**
 * The domain event of a committed change of a resident's temporary absences: the alarm engine
 * (on this instance and, relayed, on the others) takes the resident as away, or back, from the
 * next sample on, not from its next periodic reload (decision 0040).
 */
export const RESIDENT_ABSENCE_CHANGED = 'resident.absenceChanged';

export interface ResidentAbsenceChanged {
  residentId: number;
  /** The resident's absences not ended when the change committed (under way or planned), ISO times. */
  absences: { startsAt: string; endsAt: string | null }[];
}
