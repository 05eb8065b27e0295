import type { AlarmRecord } from '@vigil/contract/browser';
import { spokenChineseDigits } from './chinese-digits.ts';

/** Speech repeat of mode 3 (spec document 2 section 9): 5 times, then 10 s, for up to an hour. */
export const SPEECH = { times: 5, pauseMs: 10_000, forMs: 3_600_000 } as const;

/** Sound output, behind an interface so tests record what would be heard. */
export interface Speaker {
  speak(text: string, lang: string): Promise<void>;
  /** The alarm sound (voice mode 1). */
  play(): Promise<void>;
  /** Stops what is being said now. */
  cancel(): void;
}

export interface VoiceClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

interface Queued {
  record: Pick<AlarmRecord, 'id' | 'text' | 'voiceWay'>;
  since: number;
}

/**
 * Speaks pending alarms by their voice mode: 0 silent, 1 the alarm sound, 2 spoken once, 3 spoken
 * 5 times, then a 10 s pause, again and again for up to an hour, stopped when released. Several
 * alarms are spoken in turn. Each alarm heard is reported once (`onPlayed`, the console's
 * playAlarm log). In Chinese the digits are read one by one.
 */
export class AlarmVoice {
  private readonly queue = new Map<number, Queued>();
  private readonly played = new Set<number>();
  private running = false;
  private speaking: number | undefined;

  constructor(
    private readonly speaker: Speaker,
    private readonly clock: VoiceClock,
    private readonly lang: string,
    private readonly onPlayed: (id: number) => void,
  ) {}

  /** Alarms still to be heard, oldest first. */
  get pending(): number[] {
    return [...this.queue.keys()];
  }

  add(record: Queued['record']): void {
    if (record.voiceWay === 0 || this.queue.has(record.id)) return;
    this.queue.set(record.id, { record, since: this.clock.now() });
    void this.run();
  }

  release(id: number): void {
    this.queue.delete(id);
    if (this.speaking === id) this.speaker.cancel();
  }

  clear(): void {
    this.queue.clear();
    this.speaker.cancel();
  }

  private heard(id: number): void {
    if (this.played.has(id)) return;
    this.played.add(id);
    this.onPlayed(id);
  }

  private text(record: Queued['record']): string {
    return this.lang === 'zh-CN' ? spokenChineseDigits(record.text) : record.text;
  }

  private nextOf(spoken: ReadonlySet<number>): [number, Queued] | undefined {
    for (const entry of this.queue) if (!spoken.has(entry[0])) return entry;
    return undefined;
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.size) {
        let repeating = false;
        // One round: every queued alarm in turn, those added meanwhile too, before the pause.
        const spoken = new Set<number>();
        for (let next = this.nextOf(spoken); next; next = this.nextOf(spoken)) {
          const [id, entry] = next;
          spoken.add(id);
          const { record } = entry;
          this.speaking = id;
          if (record.voiceWay === 1) {
            await this.speaker.play();
            this.heard(id);
            this.queue.delete(id);
          } else if (record.voiceWay === 2) {
            await this.speaker.speak(this.text(record), this.lang);
            this.heard(id);
            this.queue.delete(id);
          } else if (this.clock.now() - entry.since >= SPEECH.forMs) {
            this.queue.delete(id);
          } else {
            for (let i = 0; i < SPEECH.times && this.queue.has(id); i++) {
              await this.speaker.speak(this.text(record), this.lang);
              this.heard(id);
            }
            if (this.queue.has(id)) repeating = true;
          }
          this.speaking = undefined;
        }
        if (repeating) await this.clock.sleep(SPEECH.pauseMs);
      }
    } finally {
      this.speaking = undefined;
      this.running = false;
    }
  }
}

/** The browser's speech and the shipped alarm sound. */
export const browserSpeaker = (soundUrl: string): Speaker => ({
  speak: (text, lang) =>
    new Promise<void>((resolve) => {
      const synth = window.speechSynthesis as SpeechSynthesis | undefined;
      if (!synth) return resolve();
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.lang = lang;
      // Some systems never end an utterance they cannot say: never wait for ever.
      const guard = window.setTimeout(resolve, 2_000 + text.length * 250);
      utterance.onend = utterance.onerror = () => {
        window.clearTimeout(guard);
        resolve();
      };
      synth.speak(utterance);
    }),
  play: () =>
    new Promise<void>((resolve) => {
      const audio = new Audio(soundUrl);
      audio.onended = audio.onerror = () => resolve();
      audio.play().catch(() => resolve());
    }),
  cancel: () => window.speechSynthesis?.cancel(),
});

export const browserClock: VoiceClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => window.setTimeout(resolve, ms)),
};
