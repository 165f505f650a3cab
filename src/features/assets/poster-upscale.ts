/** Poster upscaling (issue 48): a frame smaller than the largest site image is drawn larger (lanczos + unsharp) and flagged. */

/** The largest image the sites deliver (`hero_16x9`, 1920x1080): a poster must cover it. */
export const LARGEST_SITE_IMAGE = { w: 1920, h: 1080 } as const;

/** What the output records of its chosen poster. */
export interface PosterInfo { width: number; height: number; upscaled: boolean; source_width: number; source_height: number }

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * Pure: the size a poster is drawn at from a `w`x`h` frame: the smallest size of the same aspect that covers the
 * largest site image when the frame is smaller in either side (upscaled), else null (drawn at its usual width).
 */
export function upscaleTarget(w: number, h: number): { w: number; h: number } | null {
  if (w <= 0 || h <= 0 || (w >= LARGEST_SITE_IMAGE.w && h >= LARGEST_SITE_IMAGE.h)) return null;
  const f = Math.max(LARGEST_SITE_IMAGE.w / w, LARGEST_SITE_IMAGE.h / h);
  return { w: Math.max(LARGEST_SITE_IMAGE.w, even(w * f)), h: Math.max(LARGEST_SITE_IMAGE.h, even(h * f)) };
}
