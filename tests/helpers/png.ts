/** A minimal PNG decoder for screenshots (8-bit RGB or RGBA, not interlaced) — enough to test what was drawn. */

export interface Image {
  width: number;
  height: number;
  /** Bytes per pixel: 3 (RGB) or 4 (RGBA). */
  channels: number;
  pixels: Uint8Array;
}

async function inflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new DecompressionStream("deflate"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export async function decodePng(bytes: Uint8Array): Promise<Image> {
  const signature = [137, 80, 78, 71, 13, 10, 26, 10];
  if (!signature.every((byte, index) => bytes[index] === byte)) throw new Error("not a PNG");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Uint8Array[] = [];
  while (at < bytes.length) {
    const length = view.getUint32(at);
    const type = new TextDecoder("ascii", { fatal: true }).decode(bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      const [depth, colorType, , , interlace] = data.subarray(8, 13);
      if (depth !== 8 || interlace !== 0 || (colorType !== 2 && colorType !== 6)) {
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colorType}, interlace ${interlace}`);
      }
      channels = colorType === 6 ? 4 : 3;
    } else if (type === "IDAT") {
      idat.push(data);
    } else if (type === "IEND") {
      break;
    }
    at += 12 + length;
  }
  const joined = new Uint8Array(idat.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of idat) {
    joined.set(part, offset);
    offset += part.length;
  }
  const raw = await inflate(joined);
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? pixels[out + x - channels] : 0;
      const up = y > 0 ? pixels[out - stride + x] : 0;
      const upLeft = y > 0 && x >= channels ? pixels[out - stride + x - channels] : 0;
      const value = line[x];
      let result: number;
      switch (filter) {
        case 0:
          result = value;
          break;
        case 1:
          result = value + left;
          break;
        case 2:
          result = value + up;
          break;
        case 3:
          result = value + ((left + up) >> 1);
          break;
        case 4:
          result = value + paeth(left, up, upLeft);
          break;
        default:
          throw new Error(`bad PNG filter ${filter} on row ${y}`);
      }
      pixels[out + x] = result & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** The pixel at (x, y) as [r, g, b]. */
export function pixelAt(image: Image, x: number, y: number): [number, number, number] {
  const at = (y * image.width + x) * image.channels;
  return [image.pixels[at], image.pixels[at + 1], image.pixels[at + 2]];
}

/** Counts the pixels of a rectangle for which `test` holds. */
export function countPixels(
  image: Image,
  region: { x: number; y: number; width: number; height: number },
  test: (rgb: [number, number, number]) => boolean,
): number {
  let count = 0;
  for (let y = region.y; y < Math.min(image.height, region.y + region.height); y++) {
    for (let x = region.x; x < Math.min(image.width, region.x + region.width); x++) {
      if (test(pixelAt(image, x, y))) count++;
    }
  }
  return count;
}

/** Whether a colour is within `tolerance` of `#rrggbb` in every channel. */
export function near(hex: string, tolerance = 24): (rgb: [number, number, number]) => boolean {
  const target = [1, 3, 5].map((index) => parseInt(hex.slice(index, index + 2), 16));
  return (rgb) => rgb.every((value, index) => Math.abs(value - target[index]) <= tolerance);
}
