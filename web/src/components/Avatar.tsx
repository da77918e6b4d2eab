import { useState } from 'react';

export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = [...words[0]][0] ?? '';
  const last = words.length > 1 ? ([...words[words.length - 1]][0] ?? '') : '';
  return (first + last).toUpperCase();
}

/** A stable hue from a string (for the initials' background). */
function hue(s: string): number {
  let h = 0;
  for (const c of s) h = (h * 31 + c.codePointAt(0)!) % 360;
  return h;
}

/** The avatar image, or the person's initials when there is none or it fails to load (decorative: the name is shown beside it). */
export function Avatar({ url, name, size = 36 }: { url: string | null | undefined; name: string; size?: number }) {
  const [failed, setFailed] = useState<string | null>(null);
  const style = { width: size, height: size };
  if (!url || failed === url) {
    return (
      // The initials drawn by CSS (attr()), so they are no text of the button or link around them.
      <span className="avatar avatar-initials" aria-hidden="true" data-initials={initials(name)} style={{ ...style, background: `hsl(${hue(name)} 45% 38%)`, fontSize: size * 0.4 }} />
    );
  }
  return <img className="avatar" src={url} alt="" style={style} loading="lazy" referrerPolicy="no-referrer" onError={() => setFailed(url)} />;
}
