import { readFile } from 'node:fs/promises';

/** Geometry of a sprite sheet: `cols` x `rows` tiles of `w` x `h` pixels. */
export interface SheetLayout { w: number; h: number; cols: number; rows: number }

/** Size of the BMP file and info headers (BITMAPFILEHEADER 14 + BITMAPINFOHEADER 40 bytes). */
const BMP_HEADER = 54;

/**
 * Pure: lays raw 24-bit BGR tiles (`w`x`h` each, back to back, as the encode writes TILES_FILE) out row by row into an
 * uncompressed top-down BMP of `cols` x `rows` tiles; cells without a tile stay black, tiles beyond the grid are left
 * out (as ffmpeg's tile= would with one frame). BMP because it is the one image format that is raw pixels behind a
 * fixed header: Bun.Image reads it and encodes the JPEG.
 */
export function tilesToBmp(tiles: Uint8Array, o: SheetLayout): Uint8Array {
  const tileBytes = o.w * o.h * 3;
  const width = o.cols * o.w, height = o.rows * o.h;
  // BMP rows are padded to a multiple of 4 bytes.
  const stride = (width * 3 + 3) & ~3;
  const bmp = new Uint8Array(BMP_HEADER + stride * height);
  const v = new DataView(bmp.buffer);
  bmp[0] = 0x42; bmp[1] = 0x4d; // "BM"
  v.setUint32(2, bmp.length, true);
  v.setUint32(10, BMP_HEADER, true);
  v.setUint32(14, 40, true);
  v.setInt32(18, width, true);
  // A negative height: rows top-down, the order the tiles' rows come in.
  v.setInt32(22, -height, true);
  v.setUint16(26, 1, true);
  v.setUint16(28, 24, true);
  v.setUint32(34, stride * height, true);
  const count = Math.min(Math.floor(tiles.length / tileBytes), o.cols * o.rows);
  const row = o.w * 3;
  for (let i = 0; i < count; i++) {
    const x0 = (i % o.cols) * row, y0 = Math.floor(i / o.cols) * o.h;
    for (let y = 0; y < o.h; y++) {
      const from = i * tileBytes + y * row;
      bmp.set(tiles.subarray(from, from + row), BMP_HEADER + (y0 + y) * stride + x0);
    }
  }
  return bmp;
}

/**
 * Writes the sprite sheet JPEG from the encode's raw tiles file. The JPEG encode runs on Bun.Image's worker thread
 * (libjpeg-turbo): no ffmpeg start (~0.1 CPU-s each) after the encode and nothing heavy on the event loop.
 */
export async function sheetFromTiles(tilesFile: string, outFile: string, o: SheetLayout, quality = 80): Promise<void> {
  const tiles = await readFile(tilesFile);
  if (tiles.length < o.w * o.h * 3) throw new Error('the encode wrote no sprite tile');
  await new Bun.Image(tilesToBmp(tiles, o)).jpeg({ quality }).write(outFile);
}
