const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Plain text as one HTML paragraph ("" for an empty text). */
export function paragraphHtml(text: string): string {
  return text === '' ? '' : `<p>${escapeHtml(text)}</p>`;
}
