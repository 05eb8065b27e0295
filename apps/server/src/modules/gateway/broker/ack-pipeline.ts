import type { IPublishPacket, MqttClient, Packet } from 'mqtt';

type SendPacket = (packet: Packet, cb?: (error?: Error) => void, ...rest: unknown[]) => void;
/** The client's packet writer; mqtt.js calls it with the PUBACK of each QoS 1 message it took. */
interface WithSendPacket {
  _sendPacket: SendPacket;
}

interface Taken {
  messageId: number;
  /** The connection it came on: an acknowledgement never goes out on a later one. */
  stream: unknown;
  stored: Promise<void>;
  done: boolean;
  failed: boolean;
  /** The PUBACK mqtt.js wrote for it, held until it is stored and every earlier one has gone. */
  puback: Packet | undefined;
}

/**
 * Lets one MQTT connection take many QoS 1 messages at once while each is acknowledged only
 * after it is stored. mqtt.js handles a connection's incoming messages one at a time: the next
 * is read only after the previous one's PUBACK is written, so with the PUBACK after the commit a
 * burst of events (every door of a wing, a broker's redelivery) waited in line, one commit
 * each, before it even reached the batch writer — seconds at 5,000 devices (issue 21, soak).
 *
 * Here mqtt.js is told at once that a message was handled, and its PUBACK is held back and
 * written once the message is stored and every message before it on the connection has been
 * acknowledged: PUBACKs go out in the order the messages came (MQTT 4.6), never before the
 * commit. A message that could not be stored drops the connection without acknowledging it or
 * any later one; the broker delivers them again. At most `window` messages wait at once; beyond
 * that, reading stops until the oldest is acknowledged.
 *
 * It wraps the client's private packet writer (`_sendPacket`, mqtt.js 5): the tests beside it
 * fail if a new mqtt.js stops writing PUBACKs through it.
 */
export class AckPipeline {
  private readonly line: Taken[] = [];
  private readonly byId = new Map<number, Taken>();
  private readonly send: SendPacket;
  /** mqtt.js's "go on reading", held while the window is full. */
  private resume: (() => void) | undefined;

  constructor(
    private readonly client: MqttClient,
    private readonly window = 100,
    /** Told when a message could not be stored (the connection is dropped). */
    private readonly onFailure: (error: unknown) => void = () => undefined,
  ) {
    const writer = client as unknown as WithSendPacket;
    this.send = writer._sendPacket.bind(client);
    writer._sendPacket = (packet, cb, ...rest) => {
      const taken =
        packet.cmd === 'puback' && packet.messageId !== undefined ? this.byId.get(packet.messageId) : undefined;
      if (!taken) return this.send(packet, cb, ...rest);
      taken.puback = packet;
      this.release();
      // mqtt.js may read the next message now, unless the window is full.
      if (this.line.length < this.window) cb?.();
      else this.resume = () => cb?.();
    };
    client.on('close', () => this.forget());
  }

  /** Messages taken and not yet acknowledged. */
  get waiting(): number {
    return this.line.length;
  }

  /**
   * For `customHandleAcks`: starts storing the message and lets mqtt.js go on at once; the
   * PUBACK follows the store.
   */
  take(packet: IPublishPacket, store: () => Promise<unknown>, done: (code: number) => void): void {
    const messageId = packet.messageId;
    if (packet.qos !== 1 || messageId === undefined) {
      void store().then(
        () => done(0),
        () => done(0),
      );
      return;
    }
    const taken: Taken = {
      messageId,
      stream: this.client.stream,
      stored: Promise.resolve(),
      done: false,
      failed: false,
      puback: undefined,
    };
    this.line.push(taken);
    this.byId.set(messageId, taken);
    taken.stored = store().then(
      () => {
        taken.done = true;
        this.release();
      },
      (error: unknown) => {
        taken.failed = true;
        this.fail(taken, error);
      },
    );
    done(0);
  }

  /** Writes the PUBACKs at the head of the line whose messages are stored. */
  private release(): void {
    while (this.line[0]?.done && this.line[0].puback) {
      const head = this.line.shift() as Taken;
      if (this.byId.get(head.messageId) === head) this.byId.delete(head.messageId);
      if (head.stream === this.client.stream && this.client.connected) this.send(head.puback as Packet);
    }
    if (this.resume && this.line.length < this.window) {
      const resume = this.resume;
      this.resume = undefined;
      resume();
    }
  }

  private fail(taken: Taken, error: unknown): void {
    if (!this.line.includes(taken)) return;
    this.onFailure(error);
    // Nothing from here on is acknowledged on this connection: the broker sends it all again.
    this.forget();
    if (taken.stream === this.client.stream) this.client.stream.destroy();
  }

  /** The connection ended: what it took and did not acknowledge comes again on the next one. */
  private forget(): void {
    this.line.length = 0;
    this.byId.clear();
    this.resume = undefined;
  }
}
