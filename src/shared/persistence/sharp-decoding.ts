import sharp from 'sharp';

/** The formats sharp reports for the loaders left on (AVIF and HEIC both read as `heif`). */
export const DECODED_IMAGE_FORMATS: ReadonlySet<string> = new Set(['heif', 'gif', 'jpeg', 'png', 'tiff', 'webp']);

let loadersRestricted = false;

/**
 * As Zulip configures pyvips: every libvips loader off, then only those of the accepted image
 * types on again (HEIF/AVIF, GIF, JPEG, PNG, TIFF, WebP), so no upload ever reaches the SVG, PDF,
 * ImageMagick or other loaders; no operation cache (each image is decoded once). These settings
 * are the process's: every sharp adapter (avatars and organization images, thumbnails) calls
 * this before its first image, and the first call sets them.
 */
export function restrictImageLoaders(): void {
  if (loadersRestricted) return;
  sharp.block({ operation: ['VipsForeignLoad'] });
  sharp.unblock({
    operation: ['VipsForeignLoadHeif', 'VipsForeignLoadNsgif', 'VipsForeignLoadJpeg', 'VipsForeignLoadPng', 'VipsForeignLoadTiff', 'VipsForeignLoadWebp'],
  });
  sharp.cache(false);
  loadersRestricted = true;
}
