import { createConnection } from 'node:net';
import { MqttClient } from 'mqtt';

/**
 * A device's MQTT connection to the embedded broker from a chosen loopback address (127.0.0.2,
 * …): a stranger elsewhere on the network. Rejects with the broker's refusal.
 */
export const connectFrom = (
  port: number,
  localAddress: string,
  deviceId: string,
  password: string,
  track: MqttClient[] = [],
): Promise<MqttClient> =>
  new Promise<MqttClient>((resolve, reject) => {
    const client = new MqttClient(() => createConnection({ host: '127.0.0.1', port, localAddress }), {
      clientId: deviceId,
      username: deviceId,
      password,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
    });
    track.push(client);
    client.once('connect', () => resolve(client));
    client.once('error', reject);
    client.once('close', () => reject(new Error('connection closed before CONNACK')));
  });

/** MQTT 3.1.1 packets as bytes, for tests that speak to the broker below any client library. */

/** A fixed header alone: the type-and-flags byte and the remaining length as MQTT encodes it. */
export const fixedHeader = (typeByte: number, length: number): Buffer => {
  const bytes = [typeByte];
  do {
    let digit = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) digit |= 0x80;
    bytes.push(digit);
  } while (length > 0);
  return Buffer.from(bytes);
};

const text = (value: string | Buffer) => {
  const bytes = Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8');
  return Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 255]), bytes]);
};
const packet = (typeByte: number, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([fixedHeader(typeByte, body.length), body]);
};

export const connectPacket = (o: {
  clientId: string;
  username: string;
  password: string;
  will?: { topic: string; payload: string };
}): Buffer => {
  const flags = 0x80 | 0x40 | 0x02 | (o.will ? 0x04 | 0x08 | 0x20 : 0);
  return packet(
    0x10,
    text('MQTT'),
    Buffer.from([4, flags, 0, 60]),
    text(o.clientId),
    ...(o.will ? [text(o.will.topic), text(o.will.payload)] : []),
    text(o.username),
    text(o.password),
  );
};

/** A QoS 1 PUBLISH. */
export const publishPacket = (topic: string, payload: Buffer, messageId = 1): Buffer =>
  packet(0x32, text(topic), Buffer.from([messageId >> 8, messageId & 255]), payload);

export const subscribePacket = (topic: string, messageId = 1): Buffer =>
  packet(0x82, Buffer.from([messageId >> 8, messageId & 255]), text(topic), Buffer.from([1]));

export const pingPacket = (): Buffer => Buffer.from([0xc0, 0]);
