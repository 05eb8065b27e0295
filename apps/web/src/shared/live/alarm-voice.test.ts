import { describe, expect, it } from 'vitest';
import { AlarmVoice, SPEECH, type Speaker, type VoiceClock } from './alarm-voice.ts';

/** Virtual time: saying something takes 2 s, a pause takes its length; nothing waits for real. */
const world = () => {
  let now = 0;
  const heard: { at: number; what: string }[] = [];
  const played: number[] = [];
  let onSpeak: (count: number) => void = () => undefined;
  const speaker: Speaker = {
    speak: async (text) => {
      heard.push({ at: now, what: text });
      now += 2_000;
      onSpeak(heard.length);
      await Promise.resolve();
    },
    play: async () => {
      heard.push({ at: now, what: '<sound>' });
      await Promise.resolve();
    },
    cancel: () => undefined,
  };
  const clock: VoiceClock = {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      await Promise.resolve();
    },
  };
  return {
    heard,
    played,
    speaker,
    clock,
    whenSpeaking: (fn: (count: number) => void) => (onSpeak = fn),
    voice: (lang = 'en-US') => new AlarmVoice(speaker, clock, lang, (id) => played.push(id)),
  };
};
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const until = async (check: () => boolean) => {
  for (let i = 0; i < 10_000 && !check(); i++) await settle();
};

describe('AlarmVoice', () => {
  it('mode 3: five times, a 10 s pause, again — for an hour; played is logged once', async () => {
    const w = world();
    const voice = w.voice();
    voice.add({ id: 1, text: 'Bed 2: fall', voiceWay: 3 });
    await until(() => voice.pending.length === 0);
    const cycle = SPEECH.times * 2_000 + SPEECH.pauseMs;
    expect(w.heard).toHaveLength(Math.ceil(SPEECH.forMs / cycle) * SPEECH.times);
    expect(w.heard.slice(0, 6).map((h) => h.at)).toEqual([0, 2_000, 4_000, 6_000, 8_000, 20_000]);
    expect(w.heard.at(-1)?.at).toBeLessThan(SPEECH.forMs);
    expect(w.played).toEqual([1]);
  });

  it('stops speaking an alarm as soon as it is released', async () => {
    const w = world();
    const voice = w.voice();
    w.whenSpeaking((count) => count === 7 && voice.release(1));
    voice.add({ id: 1, text: 'SOS', voiceWay: 3 });
    await until(() => voice.pending.length === 0);
    expect(w.heard).toHaveLength(7);
  });

  it('several alarms are spoken in turn, five times each, then the pause', async () => {
    const w = world();
    const voice = w.voice();
    voice.add({ id: 1, text: 'first', voiceWay: 3 });
    voice.add({ id: 2, text: 'second', voiceWay: 3 });
    w.whenSpeaking((count) => {
      if (count === 20) {
        voice.release(1);
        voice.release(2);
      }
    });
    await until(() => voice.pending.length === 0);
    const words = w.heard.map((h) => h.what);
    expect(words.slice(0, 10)).toEqual([...Array(5).fill('first'), ...Array(5).fill('second')]);
    expect(w.heard[10]?.at).toBe(20_000 + SPEECH.pauseMs);
    expect(w.played).toEqual([1, 2]);
  });

  it('mode 2 speaks once, mode 1 plays the sound once, mode 0 is silent', async () => {
    const w = world();
    const voice = w.voice();
    voice.add({ id: 1, text: 'once', voiceWay: 2 });
    voice.add({ id: 2, text: 'sound', voiceWay: 1 });
    voice.add({ id: 3, text: 'silent', voiceWay: 0 });
    await until(() => voice.pending.length === 0);
    expect(w.heard.map((h) => h.what)).toEqual(['once', '<sound>']);
    expect(w.played).toEqual([1, 2]);
  });

  it('reads the digits of a bed one by one in Chinese', async () => {
    const w = world();
    const voice = w.voice('zh-CN');
    voice.add({ id: 1, text: '201房 3床：跌倒', voiceWay: 2 });
    await until(() => voice.pending.length === 0);
    expect(w.heard.map((h) => h.what)).toEqual(['二零一房 三床：跌倒']);
  });
});
