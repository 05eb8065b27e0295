import { describe, expect, it } from 'vitest';
import { MAX_PAYLOAD_BYTES } from '@vigil/contract';
import { PACKET_LIMITS, PacketScanner } from './packet-scanner.ts';
import {
  connectPacket,
  fixedHeader as header,
  pingPacket,
  publishPacket,
  subscribePacket,
} from './mqtt-test-support.ts';

const connect = connectPacket({
  clientId: 'SLP-0001',
  username: 'SLP-0001',
  password: 'a-secret-of-twenty-chars',
  will: { topic: 'vigil/v1/SLP-0001/status', payload: '{"ts":1795000000,"online":false}' },
});
const publish = (bytes: number) => publishPacket('vigil/v1/SLP-0001/event', Buffer.alloc(bytes, 0x20), 7);

describe('the packet scanner in front of the embedded broker', () => {
  it('lets a device’s CONNECT, a 64 KB PUBLISH, a SUBSCRIBE and pings through, even split byte by byte', () => {
    const stream = Buffer.concat([
      connect,
      publish(MAX_PAYLOAD_BYTES),
      subscribePacket('vigil/v1/SLP-0001/cmd'),
      pingPacket(),
      publish(10),
    ]);
    const whole = new PacketScanner();
    expect(whole.scan(stream)).toBeUndefined();
    const split = new PacketScanner();
    for (const byte of stream) expect(split.scan(Uint8Array.of(byte))).toBeUndefined();
    expect(split.firstComplete).toBe(true);
  });

  it('knows when the CONNECT has arrived whole', () => {
    const scanner = new PacketScanner();
    scanner.scan(connect.subarray(0, connect.length - 1));
    expect(scanner.firstComplete).toBe(false);
    scanner.scan(connect.subarray(connect.length - 1));
    expect(scanner.firstComplete).toBe(true);
  });

  it('refuses a CONNECT announcing 200 MB from its header alone, before any of its body', () => {
    const scanner = new PacketScanner();
    expect(scanner.scan(header(0x10, 200 * 1024 * 1024))).toEqual({ type: 1, announced: 200 * 1024 * 1024 });
    expect(new PacketScanner().scan(header(0x10, PACKET_LIMITS.connect + 1))).toMatchObject({ type: 1 });
    expect(new PacketScanner().scan(header(0x10, PACKET_LIMITS.connect))).toBeUndefined();
  });

  it('holds the first packet to the CONNECT limit whatever it claims to be', () => {
    expect(new PacketScanner().scan(header(0x32, 60_000))).toEqual({ type: 3, announced: 60_000 });
  });

  it('refuses a PUBLISH just over the 64 KB payload (with topic and header) at its header', () => {
    const scanner = new PacketScanner();
    expect(scanner.scan(connect)).toBeUndefined();
    expect(scanner.scan(header(0x32, PACKET_LIMITS.publish))).toBeUndefined();
    scanner.scan(Buffer.alloc(PACKET_LIMITS.publish));
    expect(scanner.scan(header(0x32, PACKET_LIMITS.publish + 1))).toEqual({
      type: 3,
      announced: PACKET_LIMITS.publish + 1,
    });
    const later = new PacketScanner();
    later.scan(connect);
    expect(later.scan(header(0x30, 100 * 1024 * 1024))).toMatchObject({ type: 3 });
  });

  it('refuses other packets over their limit and a remaining length longer than four bytes', () => {
    const scanner = new PacketScanner();
    scanner.scan(connect);
    expect(scanner.scan(header(0x82, PACKET_LIMITS.other + 1))).toMatchObject({ type: 8 });
    const malformed = new PacketScanner();
    expect(malformed.scan(Buffer.from([0x10, 0xff, 0xff, 0xff, 0xff, 0x01]))).toEqual({ type: 1, announced: -1 });
  });
});
