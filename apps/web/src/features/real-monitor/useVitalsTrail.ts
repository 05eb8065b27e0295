import { useState } from 'react';
import { useLiveVitals, useVitalsFrames } from '../../shared/live/live-vitals.tsx';
import { appendPoint, pointOf, type VitalsPoint } from './vitals-trail.ts';

/**
 * The resident's live samples since the page opened (the last ten minutes of them), from the
 * live socket's `/vitalsNotify` frames; the resident is followed from the first render, before
 * their page has loaded.
 */
export const useVitalsTrail = (userId: number): readonly VitalsPoint[] => {
  useLiveVitals([userId]);
  const [trail, setTrail] = useState<{ userId: number; points: readonly VitalsPoint[] }>({ userId, points: [] });
  useVitalsFrames((rows) => {
    const row = rows.find((r) => r.userId === userId);
    const point = row && pointOf(row);
    if (!point) return;
    setTrail((current) => ({
      userId,
      points: appendPoint(current.userId === userId ? current.points : [], point),
    }));
  });
  return trail.userId === userId ? trail.points : [];
};
