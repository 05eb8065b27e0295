/**
 * Just enough MQTT 3.1.1 to drive a broker from thousands of connections cheaply: the packets a
 * sleep monitor sends (CONNECT, PUBLISH QoS 0/1, PINGREQ, DISCONNECT), SUBSCRIBE for the floor's
 * counting subscriber, and a decoder for what comes back (CONNACK, PUBACK, SUBACK, PINGRESP,
 * PUBLISH). The bench's load generator uses this instead of mqtt.js so that, on a 2-core machine,
 * the generator costs as little CPU as possible and the broker under test gets the rest.
 */

export const PACKET = {
  connect: 1,
  connack: 2,
  publish: 3,
  puback: 4,
  subscribe: 8,
  suback: 9,
  pingreq: 12,
  pingresp: 13,
  disconnect: 14,
} as const;

const remainingLength = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
};

const str = (s: string | Buffer): Buffer => {
  const body = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
  const out = Buffer.allocUnsafe(2 + body.length);
  out.writeUInt16BE(body.length, 0);
  body.copy(out, 2);
  return out;
};

const packet = (first: number, parts: Buffer[]): Buffer => {
  const length = parts.reduce((n, p) => n + p.length, 0);
  return Buffer.concat([Buffer.from([first, ...remainingLength(length)]), ...parts]);
};

export interface ConnectOptions {
  clientId: string;
  username?: string;
  password?: string;
  keepaliveSeconds: number;
}

export const encodeConnect = (o: ConnectOptions): Buffer => {
  let flags = 0x02; // clean session
  if (o.username !== undefined) flags |= 0x80;
  if (o.password !== undefined) flags |= 0x40;
  const header = Buffer.from([
    0,
    4,
    0x4d,
    0x51,
    0x54,
    0x54,
    4,
    flags,
    o.keepaliveSeconds >> 8,
    o.keepaliveSeconds & 0xff,
  ]);
  const parts = [header, str(o.clientId)];
  if (o.username !== undefined) parts.push(str(o.username));
  if (o.password !== undefined) parts.push(str(o.password));
  return packet(PACKET.connect << 4, parts);
};

/** A PUBLISH; `packetId` makes it QoS 1. The topic may be given pre-encoded (`str`-style prefix included). */
export const encodePublish = (topic: Buffer, payload: Buffer, packetId?: number): Buffer => {
  const qos1 = packetId !== undefined;
  const length = topic.length + (qos1 ? 2 : 0) + payload.length;
  const rl = remainingLength(length);
  const out = Buffer.allocUnsafe(1 + rl.length + length);
  let at = 0;
  out[at++] = (PACKET.publish << 4) | (qos1 ? 0x02 : 0);
  for (const b of rl) out[at++] = b;
  at += topic.copy(out, at);
  if (qos1) {
    out.writeUInt16BE(packetId, at);
    at += 2;
  }
  payload.copy(out, at);
  return out;
};

/** A topic encoded once (length prefix + UTF-8), for `encodePublish`. */
export const encodeTopic = (topic: string): Buffer => str(topic);

export const encodeSubscribe = (packetId: number, topic: string, qos: 0 | 1): Buffer => {
  const id = Buffer.allocUnsafe(2);
  id.writeUInt16BE(packetId, 0);
  return packet((PACKET.subscribe << 4) | 0x02, [id, str(topic), Buffer.from([qos])]);
};

export const PINGREQ = Buffer.from([PACKET.pingreq << 4, 0]);
export const DISCONNECT = Buffer.from([PACKET.disconnect << 4, 0]);

export type Incoming =
  | { type: typeof PACKET.connack; returnCode: number }
  | { type: typeof PACKET.puback; packetId: number }
  | { type: typeof PACKET.suback; packetId: number; granted: number }
  | { type: typeof PACKET.pingresp }
  | { type: typeof PACKET.publish; topic: string; payload: Buffer; qos: number; packetId: number | undefined }
  | { type: 'other'; code: number };

/**
 * Splits a byte stream into packets. `onPacket` gets each packet as it is complete; the buffers it
 * hands over (a PUBLISH payload) are views into the received chunk, valid during the call only.
 */
export class Decoder {
  private pending: Buffer | undefined;

  constructor(private readonly onPacket: (p: Incoming) => void) {}

  push(chunk: Buffer): void {
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    let at = 0;
    while (at < buf.length) {
      const start = at;
      if (buf.length - at < 2) break;
      const first = buf[at++] ?? 0;
      let length = 0;
      let multiplier = 1;
      let complete = false;
      for (let i = 0; i < 4 && at < buf.length; i++) {
        const byte = buf[at++] ?? 0;
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        if (!(byte & 0x80)) {
          complete = true;
          break;
        }
      }
      if (!complete || buf.length - at < length) {
        at = start;
        break;
      }
      this.onPacket(decode(first, buf.subarray(at, at + length)));
      at += length;
    }
    if (at < buf.length) this.pending = Buffer.from(buf.subarray(at));
  }
}

const decode = (first: number, body: Buffer): Incoming => {
  const type = first >> 4;
  switch (type) {
    case PACKET.connack:
      return { type, returnCode: body[1] ?? 255 };
    case PACKET.puback:
      return { type, packetId: body.readUInt16BE(0) };
    case PACKET.suback:
      return { type, packetId: body.readUInt16BE(0), granted: body[2] ?? 0x80 };
    case PACKET.pingresp:
      return { type };
    case PACKET.publish: {
      const qos = (first >> 1) & 0x03;
      const topicLength = body.readUInt16BE(0);
      const topic = body.toString('utf8', 2, 2 + topicLength);
      let at = 2 + topicLength;
      let packetId: number | undefined;
      if (qos > 0) {
        packetId = body.readUInt16BE(at);
        at += 2;
      }
      return { type, topic, payload: body.subarray(at), qos, packetId };
    }
    default:
      return { type: 'other', code: type };
  }
};

export const encodePuback = (packetId: number): Buffer =>
  Buffer.from([PACKET.puback << 4, 2, packetId >> 8, packetId & 0xff]);
