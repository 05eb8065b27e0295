import { describe, expect, it } from 'vitest';
import { FrontendFrames } from './frontend-frames.ts';

const startup = (): Buffer => {
  const body = Buffer.from('user\0postgres\0database\0postgres\0\0');
  const packet = Buffer.alloc(8 + body.length);
  packet.writeUInt32BE(8 + body.length, 0);
  packet.writeUInt32BE(196_608, 4);
  body.copy(packet, 8);
  return packet;
};
const typed = (type: string, body: string): Buffer => {
  const payload = Buffer.from(body);
  const message = Buffer.alloc(5 + payload.length);
  message.write(type, 0);
  message.writeUInt32BE(4 + payload.length, 1);
  payload.copy(message, 5);
  return message;
};
const ssl = (): Buffer => {
  const packet = Buffer.alloc(8);
  packet.writeUInt32BE(8, 0);
  packet.writeUInt32BE(80_877_103, 4);
  return packet;
};

describe('FrontendFrames', () => {
  it('gives the start-up packet alone, then whole typed messages together', () => {
    const frames = new FrontendFrames();
    const query = Buffer.concat([typed('P', 'select 1\0\0\0'), typed('B', '\0\0\0\0\0\0\0'), typed('S', '')]);
    const out = frames.push(Buffer.concat([startup(), query]));
    expect(out).toHaveLength(2);
    expect(Buffer.from((out[0] as { bytes: Uint8Array }).bytes)).toEqual(startup());
    expect(Buffer.from((out[1] as { bytes: Uint8Array }).bytes)).toEqual(query);
  });

  it('keeps a message cut between chunks until its rest comes, byte by byte too', () => {
    const frames = new FrontendFrames();
    frames.push(startup());
    const message = typed('Q', `select '${'x'.repeat(5000)}'\0`);
    const seen: Buffer[] = [];
    for (let i = 0; i < message.length; i += 7)
      for (const frame of frames.push(message.subarray(i, i + 7)))
        if (frame.kind === 'messages') seen.push(Buffer.from(frame.bytes));
    expect(Buffer.concat(seen)).toEqual(message);
    expect(seen).toHaveLength(1);
    expect(frames.pending).toBe(0);
  });

  it('answers a TLS request before start-up and then reads the start-up', () => {
    const frames = new FrontendFrames();
    expect(frames.push(ssl())).toEqual([{ kind: 'ssl-request' }]);
    expect(frames.push(startup())[0]?.kind).toBe('messages');
  });

  it('keeps the goodbye (Terminate) apart from the messages before it', () => {
    const frames = new FrontendFrames();
    frames.push(startup());
    const query = typed('Q', 'select 1\0');
    const out = frames.push(Buffer.concat([query, typed('X', '')]));
    expect(out.map((f) => f.kind)).toEqual(['messages', 'terminate']);
    expect(Buffer.from((out[0] as { bytes: Uint8Array }).bytes)).toEqual(query);
  });

  it('refuses a length no client sends', () => {
    const frames = new FrontendFrames();
    frames.push(startup());
    const bad = Buffer.from([0x51, 0xff, 0xff, 0xff, 0xff]);
    expect(() => frames.push(bad)).toThrow(/protocol message/);
  });
});
