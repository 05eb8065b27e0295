/**
 * jsdom draws nothing: its canvas has no 2D context, and chart libraries (ECharts) fail on the
 * first paint. This gives every canvas a context that accepts every call and draws nothing, so a
 * chart renders and its option can be read back. Returns the restore, for afterEach.
 */
export const installFakeCanvas = (): (() => void) => {
  const proto = HTMLCanvasElement.prototype;
  const real = proto.getContext;
  const noop = () => undefined;
  const fakeContext = (canvas: HTMLCanvasElement) =>
    new Proxy<Record<string | symbol, unknown>>(
      { canvas },
      {
        get: (target, prop) => {
          if (prop in target) return target[prop];
          if (prop === 'measureText') return (text: string) => ({ width: text.length * 6 });
          if (prop === 'getLineDash') return () => [];
          if (prop === 'getImageData' || prop === 'createImageData') return () => ({ data: new Uint8ClampedArray(4) });
          if (typeof prop === 'string' && /^create(Linear|Radial|Conic)?(Gradient|Pattern)$/.test(prop)) {
            return () => ({ addColorStop: noop });
          }
          return typeof prop === 'string' ? noop : undefined;
        },
        set: (target, prop, value: unknown) => {
          target[prop] = value;
          return true;
        },
      },
    );
  proto.getContext = function getContext(this: HTMLCanvasElement) {
    return fakeContext(this);
  } as unknown as typeof proto.getContext;
  return () => {
    proto.getContext = real;
  };
};
