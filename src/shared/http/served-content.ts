import { open } from 'node:fs/promises';

/** How a stored upload goes out: the type the server detected and whether a browser may show it in place. */
export interface ServedContent {
  contentType: string;
  inline: boolean;
}

/**
 * For every served upload: no scripts, plugins, forms or frames, and an opaque origin
 * (`sandbox`) even if a browser did render it as a document.
 */
export const UPLOAD_CONTENT_SECURITY_POLICY = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox";

/** How much of a file the detection reads. */
export const SNIFF_BYTES = 4096;

const TEXT: ServedContent = { contentType: 'text/plain; charset=utf-8', inline: true };
/** Markup (HTML, SVG, XML) is active content: sent as plain text, and only as a download. */
const MARKUP: ServedContent = { contentType: 'text/plain; charset=utf-8', inline: false };
const BINARY: ServedContent = { contentType: 'application/octet-stream', inline: false };

const startsWith = (head: Uint8Array, bytes: readonly number[] | string, at = 0): boolean => {
  const b = typeof bytes === 'string' ? Array.from(bytes, (c) => c.charCodeAt(0)) : bytes;
  return head.length >= at + b.length && b.every((x, i) => head[at + i] === x);
};

/** Formats recognised by their signature; `inline` only for what browsers show passively (images, audio, video). */
const SIGNATURES: readonly { test: (h: Uint8Array) => boolean; type: string; inline: boolean }[] = [
  { test: (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), type: 'image/png', inline: true },
  { test: (h) => startsWith(h, [0xff, 0xd8, 0xff]), type: 'image/jpeg', inline: true },
  { test: (h) => startsWith(h, 'GIF87a') || startsWith(h, 'GIF89a'), type: 'image/gif', inline: true },
  { test: (h) => startsWith(h, 'RIFF') && startsWith(h, 'WEBP', 8), type: 'image/webp', inline: true },
  { test: (h) => startsWith(h, 'RIFF') && startsWith(h, 'WAVE', 8), type: 'audio/wav', inline: true },
  { test: (h) => startsWith(h, 'ftyp', 4) && (startsWith(h, 'avif', 8) || startsWith(h, 'avis', 8)), type: 'image/avif', inline: true },
  { test: (h) => startsWith(h, 'ftyp', 4) && startsWith(h, 'M4A ', 8), type: 'audio/mp4', inline: true },
  { test: (h) => startsWith(h, 'ftyp', 4) && startsWith(h, 'qt  ', 8), type: 'video/quicktime', inline: true },
  { test: (h) => startsWith(h, 'ftyp', 4), type: 'video/mp4', inline: true },
  { test: (h) => startsWith(h, [0x1a, 0x45, 0xdf, 0xa3]), type: 'video/webm', inline: true },
  { test: (h) => startsWith(h, 'OggS'), type: 'audio/ogg', inline: true },
  { test: (h) => startsWith(h, 'fLaC'), type: 'audio/flac', inline: true },
  { test: (h) => startsWith(h, 'ID3') || startsWith(h, [0xff, 0xfb]) || startsWith(h, [0xff, 0xf3]) || startsWith(h, [0xff, 0xf2]), type: 'audio/mpeg', inline: true },
  // A PDF is a document with scripts of its own.
  { test: (h) => startsWith(h, '%PDF-'), type: 'application/pdf', inline: false },
  { test: (h) => startsWith(h, [0x50, 0x4b, 0x03, 0x04]), type: 'application/zip', inline: false },
  { test: (h) => startsWith(h, [0x1f, 0x8b]), type: 'application/gzip', inline: false },
];

/** Text a browser would treat as markup: it opens with a tag, or names an active element anywhere. */
const looksLikeMarkup = (text: string) =>
  /^[\ufeff\s]*</.test(text) || /<\s*(script|svg|html|body|iframe|object|embed|frame|meta|link|style|img|\?xml|!doctype|[a-z]+:[a-z]+)\b/i.test(text);

/** The head decoded as UTF-8 text (a character cut at the end of a full head is allowed), or null. */
function asText(head: Uint8Array): string | null {
  if (head.includes(0)) return null;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let cut = 0; cut <= (head.length >= SNIFF_BYTES ? 3 : 0); cut++) {
    try {
      return decoder.decode(head.subarray(0, head.length - cut));
    } catch {
      // try without a truncated trailing character
    }
  }
  return null;
}

/**
 * The type an upload is served with, from its first bytes alone: the uploader's claimed type and
 * file name are not trusted. Unknown binary data and markup are only ever downloads.
 */
export function detectServedContent(head: Uint8Array): ServedContent {
  const known = SIGNATURES.find((s) => s.test(head));
  if (known) return { contentType: known.type, inline: known.inline };
  const text = asText(head);
  if (text === null) return BINARY;
  return looksLikeMarkup(text) ? MARKUP : TEXT;
}

/** The first SNIFF_BYTES of a stored file, or null when it cannot be read. */
export async function readHead(path: string): Promise<Uint8Array | null> {
  const file = await open(path, 'r').catch(() => null);
  if (file === null) return null;
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await file.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
