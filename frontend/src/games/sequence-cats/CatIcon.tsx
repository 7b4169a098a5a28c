// A small cat head drawn from a breed's look: fur, markings, ears, eyes.
import { useId } from "react";
import { LOOKS, SPECIAL_LOOKS, type Ears, type Look } from "./breeds";

function earsPath(ears: Ears): string {
  switch (ears) {
    case "big":
      return "M7 36 L10 4 L29 21 Z M57 36 L54 4 L35 21 Z";
    case "fold":
      return "M12 28 Q13 16 24 19 Q18 22 16 27 Z M52 28 Q51 16 40 19 Q46 22 48 27 Z";
    case "curl":
      return "M10 30 L14 10 Q8 6 12 2 Q20 4 28 20 Z M54 30 L50 10 Q56 6 52 2 Q44 4 36 20 Z";
    default:
      return "M9 32 L14 8 L29 21 Z M55 32 L50 8 L35 21 Z";
  }
}

function Markings({ look }: { look: Look }) {
  const m = look.mark;
  switch (look.pattern) {
    case "tabby":
      return (
        <g stroke={m} strokeWidth="2.6" strokeLinecap="round" fill="none">
          <path d="M32 21 V28 M25 22 L27 29 M39 22 L37 29" />
          <path d="M11 38 H18 M11 43 H17 M53 38 H46 M53 43 H47" />
        </g>
      );
    case "points":
      return <ellipse cx="32" cy="46" rx="13" ry="10" fill={m} opacity="0.9" />;
    case "spots":
      return (
        <g fill={m}>
          <circle cx="24" cy="25" r="2.2" />
          <circle cx="32" cy="23" r="2.4" />
          <circle cx="40" cy="25" r="2.2" />
          <circle cx="15" cy="40" r="2.2" />
          <circle cx="49" cy="40" r="2.2" />
          <circle cx="18" cy="48" r="1.8" />
          <circle cx="46" cy="48" r="1.8" />
        </g>
      );
    case "bicolor":
      return <path d="M32 30 L20 57 H44 Z" fill="#fbf9f4" />;
    case "ticked":
      return (
        <g fill={m} opacity="0.55">
          {[18, 24, 30, 36, 42, 48].map((x, i) => (
            <circle key={x} cx={x} cy={i % 2 ? 27 : 31} r="1.1" />
          ))}
          {[14, 22, 42, 50].map((x) => (
            <circle key={x} cx={x} cy={45} r="1.1" />
          ))}
        </g>
      );
    case "calico":
      return (
        <g>
          <path d="M12 30 Q20 22 30 24 L26 36 Q16 38 12 30 Z" fill={m} />
          <path d="M40 22 Q50 24 53 34 Q46 34 40 30 Z" fill="#2b2622" />
        </g>
      );
    case "van":
      return (
        <g fill={m}>
          <path d="M14 28 Q22 19 30 23 L28 29 Q20 30 14 28 Z" />
          <path d="M50 28 Q42 19 34 23 L36 29 Q44 30 50 28 Z" />
        </g>
      );
    case "hairless":
      return (
        <g stroke={m} strokeWidth="1.6" fill="none" strokeLinecap="round">
          <path d="M24 24 Q32 21 40 24 M26 28 Q32 26 38 28" />
        </g>
      );
    case "curly":
      return (
        <g stroke={m} strokeWidth="1.8" fill="none" strokeLinecap="round">
          <path d="M20 25 q3 -3 6 0 q3 3 6 0 q3 -3 6 0 q3 3 6 0" />
          <path d="M12 44 q2 -2 4 0 M48 44 q2 -2 4 0" />
        </g>
      );
    default:
      return null;
  }
}

function isDark(hex: string): boolean {
  const n = parseInt(hex.slice(1, 7), 16);
  const r = (n >> 16) & 255, g = (n >> 8) & 255, b = n & 255;
  return 0.299 * r + 0.587 * g + 0.114 * b < 140;
}

/** A picture with a name is an image to assistive technology; without one, decoration. */
function labelled(title: string | undefined) {
  return title ? { role: "img", "aria-label": title } : { "aria-hidden": true };
}

export function CatIcon({ breed, size = 40, title }: { breed: string; size?: number; title?: string }) {
  const clip = useId();
  const special = SPECIAL_LOOKS[breed];
  if (special) {
    return (
      <svg className="cat-icon" width={size} height={size} viewBox="0 0 64 64" {...labelled(title)}>
        {title && <title>{title}</title>}
        <circle cx="32" cy="32" r="28" fill={special.colour} />
        <text x="32" y="43" textAnchor="middle" fontSize="30" fontWeight="700" fill="#fff">
          {special.symbol}
        </text>
      </svg>
    );
  }
  const look = LOOKS[breed] ?? LOOKS["tabby"];
  const pointed = look.pattern === "points" || look.pattern === "van";
  const earFill = pointed ? look.mark : look.fur;
  return (
    <svg className="cat-icon" width={size} height={size} viewBox="0 0 64 64" {...labelled(title)}>
      {title && <title>{title}</title>}
      <defs>
        <clipPath id={clip}>
          <ellipse cx="32" cy="39" rx="23" ry="19" />
        </clipPath>
      </defs>
      <path d={earsPath(look.ears)} fill={earFill} stroke="#00000033" strokeWidth="1" />
      {look.ears !== "fold" && <path d="M15 27 L17 14 L25 22 Z M49 27 L47 14 L39 22 Z" fill="#f2a7a1" opacity="0.8" />}
      {look.ears === "tufted" && (
        <path d="M14 8 l-2 -5 M14 8 l1 -6 M50 8 l2 -5 M50 8 l-1 -6" stroke={look.mark} strokeWidth="1.6" strokeLinecap="round" />
      )}
      <ellipse cx="32" cy="39" rx="23" ry="19" fill={look.fur} stroke="#00000033" strokeWidth="1" />
      <g clipPath={`url(#${clip})`}>
        <Markings look={look} />
      </g>
      <g>
        <ellipse cx="23" cy="37" rx="4.6" ry="4.2" fill={look.eyes} />
        <ellipse cx="41" cy="37" rx="4.6" ry="4.2" fill={look.eyes} />
        <ellipse cx="23" cy="37" rx="1.4" ry="3.4" fill="#16120f" />
        <ellipse cx="41" cy="37" rx="1.4" ry="3.4" fill="#16120f" />
        <circle cx="24.4" cy="35.4" r="0.9" fill="#fff" />
        <circle cx="42.4" cy="35.4" r="0.9" fill="#fff" />
      </g>
      <path d="M29.5 44 h5 l-2.5 3 z" fill="#e0787a" />
      <path d="M32 47 q-2 3 -5 2 M32 47 q2 3 5 2" stroke="#3a2a22" strokeWidth="1" fill="none" strokeLinecap="round" />
      <g stroke={isDark(look.fur) ? "#ffffffcc" : "#00000066"} strokeWidth="0.8" strokeLinecap="round">
        <path d="M20 46 L6 44 M20 48 L7 50 M44 46 L58 44 M44 48 L57 50" />
      </g>
    </svg>
  );
}
