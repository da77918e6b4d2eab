/**
 * Decoding and resizing uploaded images (avatars, organization icons and logos), off the event
 * loop. Every method takes the uploaded file's local path and refuses, with Zulip's BAD_IMAGE
 * errors, what is no image of an accepted format ("Could not decode image; did you upload an
 * image file?"), an image of more pixels than IMAGE_BOMB_TOTAL_PIXELS ("Image size exceeds
 * limit."), and one that breaks while decoding ("Image is corrupted or truncated"). Only the
 * first frame of an animation is used. Outputs are PNG.
 */
export abstract class ImageProcessor {
  /** Zulip's resize_avatar, once per side: a square of that side, cropped to the centre, scaled up if need be. */
  abstract squares(file: string, sides: readonly number[]): Promise<Buffer[]>;
  /** Zulip's resize_logo: scaled down (never up) to fit LOGO_MAX_WIDTH × LOGO_MAX_HEIGHT, proportions kept. */
  abstract logo(file: string): Promise<Buffer>;
}

/**
 * Images the server serves to anyone who has their URL (avatars, organization icons and logos),
 * by path relative to their storage root: `<realm id>/<file>` or `<realm id>/realm/<file>`.
 */
export abstract class PublicImageStorage {
  /** Writes the file (replacing one of that path) so that a reader never sees it half written. */
  abstract write(path: string, data: Buffer): Promise<void>;
  /** Removes the files; missing ones are no error. */
  abstract remove(paths: readonly string[]): Promise<void>;
  /** The file's local path, to serve it. */
  abstract localPath(path: string): string;
}
